import { AnthropicAdapter } from "../adapters/anthropic.ts";
import { defineEngine } from "../descriptor.ts";

export const claude = defineEngine({
  name: "claude",
  title: "Claude",
  surface: "api",
  vendor: "Anthropic Messages API with web search",
  minimumPlan: "agency",
  price: { inputPerMillion: 3, outputPerMillion: 15, perSearch: 0.01, perRequest: 0 },
  credentials: "api_key",
  prefix: "ANTHROPIC",
  defaultModel: "claude-sonnet-4-6",
  modelVariable: true,
  build: (settings, options) => new AnthropicAdapter(settings, options.timeoutMs),
});
