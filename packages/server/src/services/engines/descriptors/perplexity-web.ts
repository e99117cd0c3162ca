import { DataForSeoAdapter } from "../adapters/dataforseo.ts";
import { defineEngine } from "../descriptor.ts";

/**
 * Perplexity as a person sees it in its own interface, captured by DataForSEO's LLM Scraper, with
 * DataForSEO's shared `login:password` key (ADR 0022).
 */
export const perplexityWeb = defineEngine({
  name: "perplexity_web",
  title: "Perplexity (web)",
  surface: "web",
  counterpart: "perplexity",
  vendor: "DataForSEO LLM Scraper (Perplexity)",
  minimumPlan: "agency",
  price: { inputPerMillion: 0, outputPerMillion: 0, perSearch: 0.004, perRequest: 0 },
  credentials: "api_key",
  prefix: "DATAFORSEO",
  defaultModel: "perplexity-web",
  modelVariable: false,
  build: (settings, options) =>
    new DataForSeoAdapter(settings, options.timeoutMs, {
      name: "perplexity_web",
      product: "perplexity",
      model: settings.model,
    }),
});
