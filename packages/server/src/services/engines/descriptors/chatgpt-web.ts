import { DataForSeoAdapter } from "../adapters/dataforseo.ts";
import { defineEngine } from "../descriptor.ts";

/**
 * ChatGPT as a person sees it in its own interface, captured by DataForSEO's LLM Scraper. Every
 * DataForSEO engine shares DATAFORSEO_API_KEY, which holds the DataForSEO API login and password
 * as `login:password` (ADR 0022). The model is the one DataForSEO reports, so there is none to choose.
 */
export const chatgptWeb = defineEngine({
  name: "chatgpt_web",
  title: "ChatGPT (web)",
  surface: "web",
  counterpart: "chatgpt",
  vendor: "DataForSEO LLM Scraper (ChatGPT)",
  minimumPlan: "agency",
  price: { inputPerMillion: 0, outputPerMillion: 0, perSearch: 0.004, perRequest: 0 },
  credentials: "api_key",
  prefix: "DATAFORSEO",
  defaultModel: "chatgpt-web",
  modelVariable: false,
  build: (settings, options) =>
    new DataForSeoAdapter(settings, options.timeoutMs, {
      name: "chatgpt_web",
      product: "chat_gpt",
      model: settings.model,
    }),
});
