import { ChatCompletionsAdapter } from "../adapters/chat-completions.ts";
import { defineEngine } from "../descriptor.ts";

export const deepseek = defineEngine({
  name: "deepseek",
  surface: "api",
  vendor: "DeepSeek",
  minimumPlan: "agency",
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
