import type {
  Response,
  ResponseFunctionWebSearch,
  ResponseOutputMessage,
  ResponseOutputText,
} from "openai/resources/responses/responses";
import {
  type Behaviour,
  domainOf,
  type FakeAnswer,
  type FakeVendor,
  field,
  hex,
  lastUserText,
  nowSeconds,
  type RecordedRequest,
  startFakeVendor,
  stringField,
  tokens,
  uniqueCitations,
} from "./server.ts";

/** The wire body of a Responses API answer (`output_text` is added by the SDK, not sent). */
type ResponsesWireBody = Omit<Response, "output_text">;

export interface FakeOpenAIResponsesOptions {
  /**
   * Append `?utm_source=openai` to cited URLs, as the real web search tool does (default true).
   * The annotations then carry the tagged URL, not the one given to `setAnswer`.
   */
  utmSource?: boolean;
}

/** The OpenAI error envelope: `{ error: { message, type, param, code } }`. */
export function openAIErrorBody(status: number, request: RecordedRequest, model = "gpt-5"): unknown {
  if (status === 429) {
    return {
      error: {
        message: `Rate limit reached for ${model} in organization org-fake on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    };
  }
  if (status === 404) {
    return {
      error: {
        message: `Invalid URL (${request.method} ${request.path})`,
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    };
  }
  return {
    error: {
      message: "The server had an error while processing your request. Sorry about that!",
      type: "server_error",
      param: null,
      code: "server_error",
    },
  };
}

function openAIRequestId(): Record<string, string> {
  return { "x-request-id": `req_${hex(16)}`, "openai-processing-ms": "850", "openai-version": "2020-10-01" };
}

function openAIRateLimitHeaders(): Record<string, string> {
  return {
    "retry-after": "1",
    "retry-after-ms": "1000",
    "x-ratelimit-limit-requests": "500",
    "x-ratelimit-remaining-requests": "0",
    "x-ratelimit-reset-requests": "1s",
  };
}

function tagged(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.searchParams.set("utm_source", "openai");
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * Builds a Responses API answer as the web search tool returns it: `web_search_call` items, then
 * an assistant `message` whose `output_text` is the answer's text followed by one markdown link per
 * citation, ` ([domain](url))`, each covered by a `url_citation` annotation whose `start_index` /
 * `end_index` (JS string offsets) span the parenthesised link. `output_text` therefore starts with
 * the answer's text.
 */
export function buildResponsesBody(
  answer: FakeAnswer,
  request: RecordedRequest,
  options: FakeOpenAIResponsesOptions = {},
): ResponsesWireBody {
  const model = answer.model ?? stringField(request.body, "model") ?? "gpt-5";
  const query = lastUserText(request.body);
  const cited = uniqueCitations(answer.citations).map((citation) => ({
    ...citation,
    url: options.utmSource === false ? citation.url : tagged(citation.url),
  }));
  let text = answer.text;
  const annotations: ResponseOutputText.URLCitation[] = [];
  for (const citation of cited) {
    text += " ";
    const start = text.length;
    text += `([${domainOf(citation.url)}](${citation.url}))`;
    annotations.push({
      type: "url_citation",
      start_index: start,
      end_index: text.length,
      url: citation.url,
      title: citation.title,
    });
  }
  const include = field(request.body, "include");
  const withSources = Array.isArray(include) && include.includes("web_search_call.action.sources");
  // One `web_search_call` per search: `action.queries` lists its queries, and the deprecated
  // `action.query` still carries the first.
  const searches: ResponseFunctionWebSearch[] = (answer.searches ?? [query]).map((search) => ({
    type: "web_search_call",
    id: `ws_${hex(24)}`,
    status: "completed",
    action: {
      type: "search",
      query: search,
      queries: [search],
      ...(withSources ? { sources: cited.map((citation) => ({ type: "url" as const, url: citation.url })) } : {}),
    },
  }));
  const message: ResponseOutputMessage = {
    type: "message",
    id: `msg_${hex(24)}`,
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text, annotations, logprobs: [] }],
  };
  const created = nowSeconds();
  const inputTokens = tokens(query) + 300;
  const outputTokens = tokens(text);
  const tools = field(request.body, "tools");
  return {
    id: `resp_${hex(24)}`,
    object: "response",
    created_at: created,
    status: "completed",
    background: false,
    completed_at: created + 2,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model,
    output: [...searches, message],
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: "default",
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: Array.isArray(tools) ? (tools as unknown as Response["tools"]) : [],
    top_logprobs: 0,
    top_p: 1,
    truncation: "disabled",
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + outputTokens,
    },
    metadata: {},
  };
}

export type FakeOpenAIResponses = FakeVendor<Behaviour>;

/**
 * A fake OpenAI Responses API (`client.responses.create`, i.e. `POST /v1/responses`).
 *
 * `url` is `http://127.0.0.1:PORT/v1`: pass it as `new OpenAI({ baseURL: fake.url, apiKey })`
 * (the SDK appends `/responses`). Other paths answer 404 with OpenAI's error envelope.
 * Errors are `{ error: { message, type, param: null, code } }` with an `x-request-id` header;
 * 429 carries `retry-after: 1` and `retry-after-ms: 1000` (the SDK reads the latter first).
 */
export function startFakeOpenAIResponses(options: FakeOpenAIResponsesOptions = {}): Promise<FakeOpenAIResponses> {
  // Conversation state, as the Responses API keeps it (`store` is true by default): a follow-up
  // names the answer it follows by `previous_response_id`, which must be one this API gave.
  const issued = new Set<string>();
  return startFakeVendor<Behaviour>({
    basePath: "/v1",
    serves: (request) => request.method === "POST" && request.path === "/v1/responses",
    notFound: (request) => ({ status: 404, body: openAIErrorBody(404, request) }),
    rateLimitHeaders: openAIRateLimitHeaders,
    errorBody: (status, request) => openAIErrorBody(status, request, stringField(request.body, "model")),
    commonHeaders: openAIRequestId,
    reply: ({ answer, request }) => {
      const previous = field(request.body, "previous_response_id");
      if (previous !== undefined && previous !== null && (typeof previous !== "string" || !issued.has(previous))) {
        return {
          status: 400,
          body: {
            error: {
              message: `Previous response with id '${String(previous)}' not found.`,
              type: "invalid_request_error",
              param: "previous_response_id",
              code: "previous_response_not_found",
            },
          },
        };
      }
      const body = buildResponsesBody(answer, request, options);
      issued.add(body.id);
      return { status: 200, body: { ...body, previous_response_id: typeof previous === "string" ? previous : null } };
    },
  });
}
