import { GeminiAdapter } from "../adapters/gemini.ts";
import { defineEngine } from "../descriptor.ts";

export const gemini = defineEngine({
  name: "gemini",
  title: "Gemini",
  surface: "api",
  vendor: "Gemini API with Google Search grounding",
  minimumPlan: "growth",
  price: { inputPerMillion: 0.3, outputPerMillion: 2.5, perSearch: 0.014, perRequest: 0 },
  credentials: "api_key",
  prefix: "GEMINI",
  defaultModel: "gemini-2.5-flash",
  modelVariable: true,
  build: (settings, options) => new GeminiAdapter(settings, options.timeoutMs),
});
