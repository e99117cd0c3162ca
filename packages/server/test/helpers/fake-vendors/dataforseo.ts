import {
  type Behaviour,
  domainOf,
  type FakeAnswer,
  type FakeVendor,
  hex,
  type JsonValue,
  type RecordedRequest,
  startFakeVendor,
  uniqueCitations,
} from "./server.ts";

/**
 * DataForSEO reports most errors with HTTP 200 and a status code in the body, for the request
 * and for each task (its errors appendix): "in_body_rate_limit" is the request-level 40202 ("The
 * rate-limit per minute has been exceeded."), "in_body_internal_error" a task's 50000 ("Internal
 * Error."), "in_body_invalid_field" a task's 40501 ("Invalid Field."). The common "rate_limited"
 * (HTTP 429 with Retry-After) is what a proxy in front of it would send.
 */
type DataForSeoBehaviour = Behaviour | "in_body_rate_limit" | "in_body_internal_error" | "in_body_invalid_field";

/** The LLM Scraper's products and what each reports, as their result fields differ. */
const PRODUCTS: Record<string, { model: string; itemType: string; searchResults: boolean; fanOut: boolean }> = {
  chat_gpt: { model: "gpt-5", itemType: "chat_gpt_text", searchResults: true, fanOut: true },
  perplexity: { model: "sonar", itemType: "perplexity_text", searchResults: true, fanOut: false },
  gemini: { model: "gemini-2.5-flash", itemType: "gemini_text", searchResults: false, fanOut: false },
};

const LIVE_PATH = /^\/v3\/ai_optimization\/([a-z_]+)\/llm_scraper\/live\/advanced$/;
const VERSION = "0.1.20260826";

function envelope(code: number, message: string, tasks: JsonValue[] | null, cost = 0): Record<string, JsonValue> {
  return {
    version: VERSION,
    status_code: code,
    status_message: message,
    time: "8.4119 sec.",
    cost,
    tasks_count: tasks?.length ?? 0,
    tasks_error: (tasks ?? []).filter((task) => (task as { status_code?: number }).status_code !== 20000).length,
    tasks,
  };
}

/** A task id as DataForSEO prints them: `11221458-1535-0612-0000-3f4a1b0c2d9e`. */
function taskId(): string {
  return `${hex(4)}-${hex(2)}-${hex(2)}-0000-${hex(6)}`;
}

function task(
  product: string,
  request: Record<string, JsonValue>,
  code: number,
  message: string,
  result: JsonValue[] | null,
): JsonValue {
  return {
    id: taskId(),
    status_code: code,
    status_message: message,
    time: "8.3504 sec.",
    cost: code === 20000 ? 0.004 : 0,
    result_count: result?.length ?? 0,
    path: ["v3", "ai_optimization", product, "llm_scraper", "live", "advanced"],
    data: { api: "ai_optimization", function: "llm_scraper", se: product, ...request },
    result,
  };
}

/** DataForSEO decodes `%##` and `+` in the keyword it echoes. */
function decodedKeyword(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}

function result(product: string, request: Record<string, JsonValue>, answer: FakeAnswer): JsonValue {
  const spec = PRODUCTS[product] ?? { model: "unknown", itemType: "text", searchResults: false, fanOut: false };
  const keyword = decodedKeyword(String(request.keyword ?? ""));
  const cited = uniqueCitations(answer.citations);
  const sources = cited.map((citation) => ({
    type: "ai_optimization_source",
    title: citation.title,
    snippet: `${citation.title}: ${answer.text.slice(0, 120)}`,
    domain: domainOf(citation.url),
    url: citation.url,
    thumbnail: null,
    source_name: domainOf(citation.url),
    publication_date: null,
    markdown: null,
  }));
  const links = cited.map((citation) => ` ([${domainOf(citation.url)}](${citation.url}))`).join("");
  const markdown = `${answer.text}${links}`;
  return {
    keyword,
    location_code: (request.location_code as number | undefined) ?? 2840,
    language_code: (request.language_code as string | undefined) ?? "en",
    model: answer.model ?? spec.model,
    check_url: null,
    datetime: new Date()
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d{3}Z$/, " +00:00"),
    markdown,
    ...(spec.searchResults
      ? {
          search_results: cited.map((citation) => ({
            type: "ai_optimization_search_result",
            url: citation.url,
            domain: domainOf(citation.url),
            title: citation.title,
            description: answer.text.slice(0, 150),
            breadcrumb: null,
          })),
        }
      : {}),
    sources,
    ...(spec.fanOut ? { fan_out_queries: answer.searches ?? [keyword] } : {}),
    se_results_count: 0,
    item_types: [spec.itemType],
    items_count: 1,
    items: [{ type: spec.itemType, rank_group: 1, rank_absolute: 1, markdown, sources }],
  };
}

/** The one task a live call may carry, or why DataForSEO refuses the POST array. */
function onlyTask(body: JsonValue | null): Record<string, JsonValue> | { code: number; message: string } {
  if (!Array.isArray(body) || body.length === 0) return { code: 40502, message: "POST Data Is Empty." };
  if (body.length > 1) return { code: 40000, message: "You can set only one task at a time." };
  const [first] = body;
  if (first === null || typeof first !== "object" || Array.isArray(first)) {
    return { code: 40503, message: "POST Data Is Invalid." };
  }
  return first;
}

const UNAUTHORIZED =
  "You are not authorized to access this resource. See your login details here: https://app.dataforseo.com/api-access .";

function authorized(request: RecordedRequest): boolean {
  const header = request.headers.authorization ?? "";
  if (!header.startsWith("Basic ")) return false;
  return Buffer.from(header.slice(6), "base64").toString("utf8").includes(":");
}

export type FakeDataForSeo = FakeVendor<DataForSeoBehaviour>;

/**
 * A fake DataForSEO AI Optimization API, LLM Scraper live endpoints (plain `fetch`, no SDK):
 * `POST /v3/ai_optimization/{chat_gpt|perplexity|gemini}/llm_scraper/live/advanced` with HTTP
 * Basic credentials (`login:password`) and a JSON array of one task `{ keyword, location_code |
 * location_name, language_code | language_name }` answers `{ version, status_code: 20000,
 * status_message, time, cost, tasks_count, tasks_error, tasks: [{ id, status_code, status_message,
 * …, data, result: [{ keyword, model, markdown, search_results, sources, fan_out_queries, items,
 * … }] }] }`. ChatGPT's result has `search_results` and `fan_out_queries` (the searches given to
 * `setAnswer`, by default the keyword), Perplexity's `search_results` only, Gemini's neither.
 *
 * `url` is `http://127.0.0.1:PORT`. Without credentials the answer is HTTP 401 with a 40100 body;
 * another path HTTP 404 with 40400; several tasks, none, or a task without a keyword are refused
 * with HTTP 200 and the documented codes (40000, 40502, 40503 at the request level, 40501 on the
 * task). None of those consumes a behaviour.
 */
export function startFakeDataForSeo(): Promise<FakeDataForSeo> {
  const refusal = (request: RecordedRequest): { status: number; body: unknown } | undefined => {
    if (request.method !== "POST" || !LIVE_PATH.test(request.path)) return undefined;
    if (!authorized(request)) return { status: 401, body: envelope(40100, UNAUTHORIZED, null) };
    const product = LIVE_PATH.exec(request.path)?.[1] ?? "";
    if (PRODUCTS[product] === undefined) {
      return { status: 200, body: envelope(20000, "Ok.", [task(product, {}, 40402, "Invalid Path.", null)]) };
    }
    const only = onlyTask(request.body);
    if ("code" in only && typeof only.code === "number") {
      return { status: 200, body: envelope(only.code, String(only.message), null) };
    }
    const fields = only as Record<string, JsonValue>;
    if (typeof fields.keyword !== "string" || fields.keyword.trim() === "") {
      return {
        status: 200,
        body: envelope(20000, "Ok.", [task(product, fields, 40501, "Invalid Field: 'keyword'.", null)]),
      };
    }
    return undefined;
  };
  return startFakeVendor<DataForSeoBehaviour>({
    basePath: "",
    serves: (request) => request.method === "POST" && LIVE_PATH.test(request.path),
    notFound: () => ({ status: 404, body: envelope(40400, "Not Found.", null) }),
    passive: refusal,
    rateLimitHeaders: () => ({ "retry-after": "1" }),
    errorBody: (status) =>
      status === 429
        ? envelope(40202, "The rate-limit per minute has been exceeded.", null)
        : envelope(50000, "Internal Server Error.", null),
    reply: ({ behaviour, answer, request }) => {
      const product = LIVE_PATH.exec(request.path)?.[1] ?? "";
      const fields = (Array.isArray(request.body) ? request.body[0] : {}) as Record<string, JsonValue>;
      if (behaviour === "in_body_rate_limit") {
        return { status: 200, body: envelope(40202, "The rate-limit per minute has been exceeded.", null) };
      }
      if (behaviour === "in_body_internal_error") {
        return { status: 200, body: envelope(20000, "Ok.", [task(product, fields, 50000, "Internal Error.", null)]) };
      }
      if (behaviour === "in_body_invalid_field") {
        return { status: 200, body: envelope(20000, "Ok.", [task(product, fields, 40501, "Invalid Field.", null)]) };
      }
      const done = task(product, fields, 20000, "Ok.", [result(product, fields, answer)]);
      return { status: 200, body: envelope(20000, "Ok.", [done], 0.004) };
    },
  });
}
