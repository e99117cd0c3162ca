import { ChatCompletionsAdapter } from "../adapters/chat-completions.ts";
import { defineEngine } from "../descriptor.ts";

export const perplexity = defineEngine({
  name: "perplexity",
  title: "Perplexity",
  surface: "api",
  vendor: "Perplexity Sonar",
  minimumPlan: "starter",
  price: { inputPerMillion: 1, outputPerMillion: 1, perSearch: 0, perRequest: 0.005 },
  credentials: "api_key",
  prefix: "PERPLEXITY",
  defaultModel: "sonar",
  modelVariable: true,
  build: (settings, options) =>
    new ChatCompletionsAdapter(
      {
        name: "perplexity",
        apiKey: settings.apiKey,
        baseUrl: settings.baseUrl ?? "https://api.perplexity.ai",
        model: settings.model,
        userLocation: true,
      },
      options.timeoutMs,
    ),
});
