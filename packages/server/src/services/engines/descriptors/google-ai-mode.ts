import { SerpApiAnswerAdapter } from "../adapters/serpapi-answer.ts";
import { defineEngine } from "../descriptor.ts";

/**
 * Google AI Mode as a person sees it, through SerpApi's `google_ai_mode` engine. It shares
 * SerpApi's credentials with `google_ai_overview`; Google has no AI Mode API of its own, so it has
 * no counterpart, and no model to choose.
 */
export const googleAiMode = defineEngine({
  name: "google_ai_mode",
  title: "Google AI Mode",
  surface: "web",
  vendor: "SerpApi (Google AI Mode)",
  minimumPlan: "growth",
  price: { inputPerMillion: 0, outputPerMillion: 0, perSearch: 0.015, perRequest: 0 },
  credentials: "api_key",
  prefix: "SERPAPI",
  defaultModel: "google-ai-mode",
  modelVariable: false,
  build: (settings, options) =>
    new SerpApiAnswerAdapter(settings, options.timeoutMs, {
      name: "google_ai_mode",
      engine: "google_ai_mode",
      localized: true,
      model: settings.model,
    }),
});
