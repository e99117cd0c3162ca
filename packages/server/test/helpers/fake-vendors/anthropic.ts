import type {
  ContentBlock,
  Message,
  ServerToolUseBlock,
  TextBlock,
  WebSearchResultBlock,
  WebSearchToolResultBlock,
} from "@anthropic-ai/sdk/resources/messages/messages";
import {
  type Behaviour,
  base62,
  base64,
  type FakeAnswer,
  type FakeVendor,
  field,
  lastUserText,
  type RecordedRequest,
  splitInto,
  startFakeVendor,
  stringField,
  tokens,
  uniqueCitations,
} from "./server.ts";

/** Anthropic's own extra behaviour: HTTP 529 `overloaded_error`, which its SDK retries like a 5xx. */
type AnthropicBehaviour = Behaviour | "overloaded";

/** Anthropic's error envelope: `{ type: "error", error: { type, message }, request_id }`. */
function anthropicErrorBody(status: number, request: RecordedRequest): unknown {
  const error =
    status === 429
      ? {
          type: "rate_limit_error",
          message:
            "This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.",
        }
      : status === 404
        ? { type: "not_found_error", message: `Not found: ${request.method} ${request.path}` }
        : status === 529
          ? { type: "overloaded_error", message: "Overloaded" }
          : { type: "api_error", message: "Internal server error" };
  return { type: "error", error, request_id: `req_011C${base62(20)}` };
}

function pageAge(daysAgo: number): string {
  const date = new Date(Date.now() - daysAgo * 86_400_000);
  return date.toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
}

/**
 * Builds a Messages API answer as the web search tool returns it: per search, a `server_tool_use`
 * block (`name: "web_search"`, `input: { query }`) and a `web_search_tool_result` with one
 * `web_search_result` per cited URL; then the text split into 2–3 `text` blocks whose texts
 * concatenate to exactly the answer's text. The first text block has `citations: null`; the
 * citations are spread over the following blocks as `web_search_result_location` entries
 * (`cited_text` is the block's own text, at most 150 characters).
 */
export function buildMessageBody(answer: FakeAnswer, request: RecordedRequest): Message {
  const model = answer.model ?? stringField(request.body, "model") ?? "claude-sonnet-4-6";
  const query = lastUserText(request.body);
  const cited = uniqueCitations(answer.citations);
  const results: WebSearchResultBlock[] = cited.map((citation, index) => ({
    type: "web_search_result",
    url: citation.url,
    title: citation.title,
    encrypted_content: base64(192),
    page_age: index % 3 === 2 ? null : pageAge(index * 9 + 2),
  }));
  // Each search is a `server_tool_use` block followed by its `web_search_tool_result`.
  const searches: ContentBlock[] = (answer.searches ?? [query]).flatMap((search) => {
    const toolUseId = `srvtoolu_01${base62(22)}`;
    const toolUse: ServerToolUseBlock = {
      type: "server_tool_use",
      id: toolUseId,
      name: "web_search",
      input: { query: search },
      caller: { type: "direct" },
    };
    const toolResult: WebSearchToolResultBlock = {
      type: "web_search_tool_result",
      tool_use_id: toolUseId,
      content: results,
      caller: { type: "direct" },
    };
    return [toolUse, toolResult];
  });
  const parts = splitInto(answer.text, cited.length > 1 ? 3 : 2);
  const texts: TextBlock[] = parts.map((text) => ({ type: "text", text, citations: null }));
  const carriers = texts.length > 1 ? texts.slice(1) : texts;
  cited.forEach((citation, index) => {
    const block = carriers[index % carriers.length];
    if (block === undefined) return;
    block.citations ??= [];
    block.citations.push({
      type: "web_search_result_location",
      url: citation.url,
      title: citation.title,
      encrypted_index: base64(48),
      cited_text: block.text.trim().slice(0, 150),
    });
  });
  const content: ContentBlock[] = [...searches, ...texts];
  return {
    id: `msg_01${base62(22)}`,
    type: "message",
    role: "assistant",
    model,
    content,
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: tokens(query) + 2100,
      output_tokens: tokens(answer.text),
      cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: { web_search_requests: searches.length / 2, web_fetch_requests: 0 },
      service_tier: "standard",
      speed: null,
    },
  };
}

export type FakeAnthropic = FakeVendor<AnthropicBehaviour>;

/**
 * What the Messages API refuses in a conversation: it starts with a user turn, alternates user and
 * assistant, and ends with the user's question; `system` is a top-level string or blocks, never a
 * message.
 */
function conversationIssue(request: RecordedRequest): string | null {
  const messages = field(request.body, "messages");
  if (!Array.isArray(messages) || messages.length === 0) return "messages: at least one message is required";
  for (const [index, message] of messages.entries()) {
    const role = message !== null && typeof message === "object" && !Array.isArray(message) ? message.role : undefined;
    const expected = index % 2 === 0 ? "user" : "assistant";
    if (role === "system")
      return `messages.${index}.role: Input should be 'user' or 'assistant' (use the top-level system parameter)`;
    if (role !== expected)
      return `messages: roles must alternate between "user" and "assistant", but found ${String(role)} at ${index}`;
  }
  if (messages.length % 2 === 0) return "messages: the last message must be from the user";
  return null;
}

/**
 * A fake Anthropic Messages API (`client.messages.create`, i.e. `POST /v1/messages`).
 *
 * `url` is `http://127.0.0.1:PORT` WITHOUT `/v1`: pass it as `new Anthropic({ baseURL: fake.url, apiKey })`
 * (the SDK's paths already start with `/v1`). Errors are
 * `{ type: "error", error: { type, message }, request_id }` with a `request-id` header; 429 is
 * `rate_limit_error` with `retry-after: 1` and `retry-after-ms: 1000`, 500 is `api_error`, and the
 * extra behaviour "overloaded" answers 529 `overloaded_error`.
 */
export function startFakeAnthropic(): Promise<FakeAnthropic> {
  return startFakeVendor<AnthropicBehaviour>({
    basePath: "",
    serves: (request) => request.method === "POST" && request.path === "/v1/messages",
    notFound: (request) => ({ status: 404, body: anthropicErrorBody(404, request) }),
    rateLimitHeaders: () => ({
      "retry-after": "1",
      "retry-after-ms": "1000",
      "anthropic-ratelimit-requests-limit": "50",
      "anthropic-ratelimit-requests-remaining": "0",
      "anthropic-ratelimit-requests-reset": new Date(Date.now() + 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    }),
    errorBody: anthropicErrorBody,
    commonHeaders: () => ({ "request-id": `req_011C${base62(20)}`, "anthropic-organization-id": "fake-org" }),
    reply: ({ behaviour, answer, request }) => {
      if (behaviour === "overloaded") return { status: 529, body: anthropicErrorBody(529, request) };
      const issue = conversationIssue(request);
      if (issue !== null) {
        return {
          status: 400,
          body: {
            type: "error",
            error: { type: "invalid_request_error", message: issue },
            request_id: `req_011C${base62(20)}`,
          },
        };
      }
      return { status: 200, body: buildMessageBody(answer, request) };
    },
  });
}
