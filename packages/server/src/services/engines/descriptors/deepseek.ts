import { ChatCompletionsAdapter } from "../adapters/chat-completions.ts";
import { defineEngine } from "../descriptor.ts";

export const deepseek = defineEngine({
  name: "deepseek",
  title: "DeepSeek",
  surface: "api",
  vendor: "DeepSeek",
  minimumPlan: "agency",
  price: { inputPerMillion: 0.28, outputPerMillion: 0.42, perSearch: 0, perRequest: 0 },
  credentials: "api_key",
  prefix: "DEEPSEEK",
  defaultModel: "deepseek-chat",
  modelVariable: true,
  build: (settings, options) =>
    new ChatCompletionsAdapter(
      {
        name: "deepseek",
        apiKey: settings.apiKey,
        baseUrl: settings.baseUrl ?? "https://api.deepseek.com",
        model: settings.model,
      },
      options.timeoutMs,
    ),
});
