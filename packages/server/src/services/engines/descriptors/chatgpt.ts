import { OpenAIResponsesAdapter } from "../adapters/openai-responses.ts";
import { defineEngine } from "../descriptor.ts";

export const chatgpt = defineEngine({
  name: "chatgpt",
  title: "ChatGPT",
  surface: "api",
  vendor: "OpenAI Responses API with web search",
  minimumPlan: "free",
  price: { inputPerMillion: 0.25, outputPerMillion: 2, perSearch: 0.01, perRequest: 0 },
  credentials: "api_key",
  prefix: "OPENAI",
  defaultModel: "gpt-5-mini",
  modelVariable: true,
  build: (settings, options) =>
    new OpenAIResponsesAdapter(settings, options.timeoutMs, { name: "chatgpt", userLocation: true, batch: true }),
});
