import { DataForSeoAdapter } from "../adapters/dataforseo.ts";
import { defineEngine } from "../descriptor.ts";

/**
 * Gemini as a person sees it in its own interface, captured by DataForSEO's LLM Scraper, with
 * DataForSEO's shared `login:password` key (ADR 0022).
 */
export const geminiWeb = defineEngine({
  name: "gemini_web",
  title: "Gemini (web)",
  surface: "web",
  counterpart: "gemini",
  vendor: "DataForSEO LLM Scraper (Gemini)",
  minimumPlan: "agency",
  price: { inputPerMillion: 0, outputPerMillion: 0, perSearch: 0.004, perRequest: 0 },
  credentials: "api_key",
  prefix: "DATAFORSEO",
  defaultModel: "gemini-web",
  modelVariable: false,
  build: (settings, options) =>
    new DataForSeoAdapter(settings, options.timeoutMs, {
      name: "gemini_web",
      product: "gemini",
      model: settings.model,
    }),
});
