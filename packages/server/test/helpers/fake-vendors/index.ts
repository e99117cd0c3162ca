export { startFakeAnthropic } from "./anthropic.ts";
export {
  type ChatFlavour,
  type FakeChatCompletions,
  type PerplexitySearchResult,
  startFakeChatCompletions,
} from "./chat-completions.ts";
export { startFakeDataForSeo } from "./dataforseo.ts";
export { startFakeGemini } from "./gemini.ts";
export { startFakeOpenAIResponses } from "./openai-responses.ts";
export {
  type SerpApiAiOverview,
  startFakeSerpApi,
} from "./serpapi.ts";
export type { AiModeBody, CopilotBody } from "./serpapi-answers.ts";
export {
  DEFAULT_ANSWER,
  type FakeAnswer,
  type FakeVendor,
} from "./server.ts";
