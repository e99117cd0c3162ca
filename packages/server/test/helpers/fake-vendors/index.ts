export {
  type AnthropicBehaviour,
  anthropicErrorBody,
  buildMessageBody,
  type FakeAnthropic,
  startFakeAnthropic,
} from "./anthropic.ts";
export {
  buildChatCompletionBody,
  type ChatCompletionWireBody,
  type ChatFlavour,
  type FakeChatCompletions,
  type FakeChatCompletionsOptions,
  type PerplexitySearchResult,
  startFakeChatCompletions,
  withCitationMarkers,
} from "./chat-completions.ts";
export {
  buildGenerateContentBody,
  type FakeGemini,
  type FakeGeminiOptions,
  type GeminiBehaviour,
  type GenerateContentWireBody,
  geminiErrorBody,
  startFakeGemini,
} from "./gemini.ts";
export {
  buildResponsesBody,
  type FakeOpenAIResponses,
  type FakeOpenAIResponsesOptions,
  openAIErrorBody,
  type ResponsesWireBody,
  startFakeOpenAIResponses,
} from "./openai-responses.ts";
export {
  buildAiOverview,
  type FakeSerpApi,
  type SerpApiAiOverview,
  type SerpApiBehaviour,
  type SerpApiReference,
  type SerpApiTextBlock,
  startFakeSerpApi,
} from "./serpapi.ts";
export {
  BEHAVIOURS,
  type Behaviour,
  type Citation,
  DEFAULT_ANSWER,
  type FakeAnswer,
  type FakeVendor,
  type JsonValue,
  type RecordedRequest,
  type Reply,
  startFakeVendor,
  type VendorDefinition,
} from "./server.ts";
