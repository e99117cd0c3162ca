import type { ChatCompletion } from "openai/resources/chat/completions/completions";

/** The vendor's own type of the wire body, for fakes outside this package (the web app's browser tests). */
export type { ChatCompletion };

import { openAIErrorBody } from "./openai-responses.ts";
import {
  type Behaviour,
  base62,
  type FakeAnswer,
  type FakeVendor,
  hex,
  lastUserText,
  nowSeconds,
  type RecordedRequest,
  sentencePieces,
  startFakeVendor,
  stringField,
  tokens,
  uniqueCitations,
  uuid,
} from "./server.ts";

/**
 * Which OpenAI-compatible vendor to imitate:
 * - `perplexity` (Sonar): `[1]`-style markers in the text, top-level `citations` (URLs) and
 *   `search_results` (`{ title, url, date, last_updated, snippet, source }`), usage with `cost`;
 * - `xai` (Grok): top-level `citations` (URLs), `usage.num_sources_used`; errors `{ code, error }`;
 * - `deepseek`: DeepSeek's usage fields (`prompt_cache_hit_tokens`…), no citations;
 * - `plain`: a bare OpenAI-compatible server (Ollama, vLLM), no citations.
 */
export type ChatFlavour = "perplexity" | "xai" | "deepseek" | "plain";

export interface PerplexitySearchResult {
  title: string;
  url: string;
  date: string | null;
  last_updated: string | null;
  snippet: string;
  source: "web";
}

/** The wire body: a standard ChatCompletion plus the flavour's top-level extras. */
type ChatCompletionWireBody = ChatCompletion & {
  citations?: string[];
  search_results?: PerplexitySearchResult[];
};

export interface FakeChatCompletionsOptions {
  flavour?: ChatFlavour;
}

function chatErrorBody(flavour: ChatFlavour, status: number, request: RecordedRequest): unknown {
  if (flavour === "xai") {
    // xAI answers errors as `{ code, error }` with `error` a plain string.
    return status === 429
      ? {
          code: "Some resource has been exhausted",
          error: "Your team has reached its requests-per-second rate limit. Please retry later.",
        }
      : status === 404
        ? { code: "Some requested entity was not found", error: `No handler for ${request.method} ${request.path}` }
        : { code: "Internal error", error: "Service temporarily unavailable. The model is overloaded." };
  }
  if (flavour === "perplexity") {
    return status === 429
      ? { error: { message: "Rate limit exceeded. Please try again later.", type: "rate_limit_exceeded", code: 429 } }
      : status === 404
        ? { error: { message: "Not Found", type: "not_found", code: 404 } }
        : { error: { message: "Internal server error", type: "internal_server_error", code: 500 } };
  }
  return openAIErrorBody(status, request, stringField(request.body, "model"));
}

function isoDay(daysAgo: number): string {
  return new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Perplexity puts `[n]` markers (1-based into `citations`) right after the sentence they support.
 * Removing every `/\[\d+\]/g` from the content gives back the answer's text exactly.
 */
function withCitationMarkers(text: string, citationCount: number): string {
  if (citationCount === 0) return text;
  return sentencePieces(text)
    .map((piece, index) => {
      const body = piece.trimEnd();
      const tail = piece.slice(body.length);
      const markers = index === 0 && citationCount > 1 ? "[1][2]" : `[${(index % citationCount) + 1}]`;
      return `${body}${markers}${tail}`;
    })
    .join("");
}

/** Builds a chat completion in the given vendor's flavour. */
function buildChatCompletionBody(
  flavour: ChatFlavour,
  answer: FakeAnswer,
  request: RecordedRequest,
): ChatCompletionWireBody {
  const defaults: Record<ChatFlavour, string> = {
    perplexity: "sonar",
    xai: "grok-4",
    deepseek: "deepseek-chat",
    plain: "llama3.1",
  };
  const model = answer.model ?? stringField(request.body, "model") ?? defaults[flavour];
  const prompt = lastUserText(request.body);
  const cited = uniqueCitations(answer.citations);
  const content = flavour === "perplexity" ? withCitationMarkers(answer.text, cited.length) : answer.text;
  const promptTokens = tokens(prompt) + 6;
  const completionTokens = tokens(content);
  const base = {
    object: "chat.completion" as const,
    created: nowSeconds(),
    model,
  };
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  switch (flavour) {
    case "perplexity":
      return {
        id: uuid(),
        ...base,
        usage: Object.assign(usage, {
          search_context_size: "low",
          cost: { input_tokens_cost: 0, output_tokens_cost: 0.0001, request_cost: 0.005, total_cost: 0.0051 },
        }),
        citations: cited.map((citation) => citation.url),
        search_results: cited.map((citation, index) => ({
          title: citation.title,
          url: citation.url,
          date: index % 3 === 2 ? null : isoDay(index * 11 + 3),
          last_updated: isoDay(index * 5 + 1),
          snippet: `${citation.title}. ${answer.text.slice(0, 120)}`,
          source: "web" as const,
        })),
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            logprobs: null,
            message: { role: "assistant", content, refusal: null },
          },
        ],
      };
    case "xai":
      return {
        id: uuid(),
        ...base,
        system_fingerprint: `fp_${hex(5)}`,
        usage: Object.assign(usage, {
          prompt_tokens_details: { text_tokens: promptTokens, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 },
          completion_tokens_details: {
            reasoning_tokens: 0,
            audio_tokens: 0,
            accepted_prediction_tokens: 0,
            rejected_prediction_tokens: 0,
          },
          num_sources_used: cited.length,
        }),
        citations: cited.map((citation) => citation.url),
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            logprobs: null,
            message: { role: "assistant", content, refusal: null },
          },
        ],
      };
    case "deepseek":
      return {
        id: uuid(),
        ...base,
        system_fingerprint: "fp_feb633d1f5_prod0820",
        usage: Object.assign(usage, {
          prompt_tokens_details: { cached_tokens: 0 },
          prompt_cache_hit_tokens: 0,
          prompt_cache_miss_tokens: promptTokens,
        }),
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            logprobs: null,
            message: { role: "assistant", content, refusal: null },
          },
        ],
      };
    default:
      return {
        id: `chatcmpl-${base62(29)}`,
        ...base,
        system_fingerprint: `fp_${hex(5)}`,
        usage,
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            logprobs: null,
            message: { role: "assistant", content, refusal: null },
          },
        ],
      };
  }
}

export interface FakeChatCompletions extends FakeVendor<Behaviour> {
  readonly flavour: ChatFlavour;
}

/**
 * A fake OpenAI-compatible Chat Completions server (`client.chat.completions.create`).
 *
 * `url` is `http://127.0.0.1:PORT` (no `/v1`, like Perplexity's and DeepSeek's real base URLs):
 * pass it as `new OpenAI({ baseURL: fake.url, apiKey })`, so the request is `POST /chat/completions`.
 * `POST /v1/chat/completions` is served too, so `${fake.url}/v1` works as well (xAI, Ollama, vLLM
 * style). 429 carries `retry-after: 1` only (these vendors send no `retry-after-ms`).
 */
export function startFakeChatCompletions(options: FakeChatCompletionsOptions = {}): Promise<FakeChatCompletions> {
  const flavour = options.flavour ?? "plain";
  return startFakeVendor<Behaviour>({
    basePath: "",
    serves: (request) =>
      request.method === "POST" && (request.path === "/chat/completions" || request.path === "/v1/chat/completions"),
    notFound: (request) => ({ status: 404, body: chatErrorBody(flavour, 404, request) }),
    rateLimitHeaders: () => ({ "retry-after": "1" }),
    errorBody: (status, request) => chatErrorBody(flavour, status, request),
    commonHeaders: () => ({ "x-request-id": uuid() }),
    reply: ({ answer, request }) => ({ status: 200, body: buildChatCompletionBody(flavour, answer, request) }),
  }).then((fake) => Object.assign(fake, { flavour }));
}
