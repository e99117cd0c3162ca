import { SerpApiAnswerAdapter } from "../adapters/serpapi-answer.ts";
import { defineEngine } from "../descriptor.ts";

/**
 * Microsoft Copilot's answer in Bing, through SerpApi's `bing_copilot` engine, with SerpApi's
 * shared credentials. SerpApi's Copilot API takes the query alone: no country or language.
 */
export const copilot = defineEngine({
  name: "copilot",
  title: "Microsoft Copilot",
  surface: "web",
  vendor: "SerpApi (Microsoft Copilot in Bing)",
  minimumPlan: "agency",
  price: { inputPerMillion: 0, outputPerMillion: 0, perSearch: 0.015, perRequest: 0 },
  credentials: "api_key",
  prefix: "SERPAPI",
  defaultModel: "bing-copilot",
  modelVariable: false,
  build: (settings, options) =>
    new SerpApiAnswerAdapter(settings, options.timeoutMs, {
      name: "copilot",
      engine: "bing_copilot",
      localized: false,
      model: settings.model,
    }),
});
