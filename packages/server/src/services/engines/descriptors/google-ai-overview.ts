import { SerpApiAdapter } from "../adapters/serpapi.ts";
import { defineEngine } from "../descriptor.ts";

/** Google shows one AI Overview per search: there is no model to choose, so no SERPAPI_MODEL. */
export const googleAiOverview = defineEngine({
  name: "google_ai_overview",
  title: "Google AI Overviews",
  surface: "api",
  vendor: "SerpApi (Google AI Overviews)",
  minimumPlan: "growth",
  price: { inputPerMillion: 0, outputPerMillion: 0, perSearch: 0.015, perRequest: 0 },
  credentials: "api_key",
  prefix: "SERPAPI",
  defaultModel: "google-ai-overview",
  modelVariable: false,
  build: (settings, options) => new SerpApiAdapter(settings, options.timeoutMs),
});
