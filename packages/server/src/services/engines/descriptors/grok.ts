import { OpenAIResponsesAdapter } from "../adapters/openai-responses.ts";
import { defineEngine } from "../descriptor.ts";

/** xAI's API speaks OpenAI's Responses protocol; its web search tool takes no user location. */
export const grok = defineEngine({
  name: "grok",
  title: "Grok",
  surface: "api",
  vendor: "xAI Grok",
  minimumPlan: "agency",
  price: { inputPerMillion: 3, outputPerMillion: 15, perSearch: 0.005, perRequest: 0 },
  credentials: "api_key",
  prefix: "XAI",
  defaultModel: "grok-4",
  modelVariable: true,
  build: (settings, options) =>
    new OpenAIResponsesAdapter({ ...settings, baseUrl: settings.baseUrl ?? "https://api.x.ai/v1" }, options.timeoutMs, {
      name: "grok",
      userLocation: false,
    }),
});
