import {
  buildAiModeBody,
  buildCopilotBody,
  leadingWords,
  references as referencesOf,
  type SerpApiReference,
  type SerpApiTextBlock,
  sourceName,
} from "./serpapi-answers.ts";
import {
  type Behaviour,
  base64url,
  domainOf,
  type FakeAnswer,
  type FakeVendor,
  hex,
  type RecordedRequest,
  sentences,
  startFakeVendor,
  uniqueCitations,
} from "./server.ts";

/**
 * SerpApi's extra behaviours. "paged": the overview comes behind a page_token; "overview_error":
 * the search succeeds but its `ai_overview` is only `{ error }` (Google did not finish loading it);
 * "markdown_only": an AI Mode answer with `reconstructed_markdown` and no `text_blocks`;
 * "no_answer": an AI Mode or Copilot search that succeeds without an answer, only SerpApi's
 * `{ error }` ("Google hasn't returned any results for this query.").
 */
type SerpApiBehaviour = Behaviour | "paged" | "overview_error" | "markdown_only" | "no_answer";

export interface SerpApiAiOverview {
  text_blocks: SerpApiTextBlock[];
  references: SerpApiReference[];
}

/** The engines whose answer is the whole result: Google AI Mode and Bing Copilot. */
const ANSWER_ENGINES = new Set(["google_ai_mode", "bing_copilot"]);

const NO_KEY = "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key";

function errorBody(status: number, request: RecordedRequest): unknown {
  if (status === 429) return { error: "Your account has run out of searches." };
  if (status === 404) return { error: `Unsupported path: ${request.path}` };
  return { error: "Internal server error. Please try again later or contact us." };
}

/**
 * Builds the `ai_overview` object: a `heading` (the query), a `paragraph` holding the first
 * sentence, and a `list` holding each further sentence as `{ title, snippet, reference_indexes }`.
 * Joining every `snippet` (paragraph and list items, in order) with single spaces gives back the
 * answer's text when its sentences are separated by single spaces; the heading is extra.
 * `references` has one entry per cited URL, `index` being its position.
 */
function buildAiOverview(answer: FakeAnswer, query: string): SerpApiAiOverview {
  const references = referencesOf(answer);
  const parts = sentences(answer.text);
  const count = references.length;
  const refs = (position: number): number[] => (count === 0 ? [] : [position % count]);
  const blocks: SerpApiTextBlock[] = query.length > 0 ? [{ type: "heading", snippet: query }] : [];
  const [first, ...rest] = parts;
  if (first !== undefined) {
    blocks.push({ type: "paragraph", snippet: first, reference_indexes: references.slice(0, 2).map((r) => r.index) });
  }
  if (rest.length > 0) {
    blocks.push({
      type: "list",
      list: rest.map((sentence, index) => ({
        title: leadingWords(sentence, 3),
        snippet: sentence,
        reference_indexes: refs(index + 2),
      })),
    });
  }
  return { text_blocks: blocks, references };
}

function searchMetadata(origin: string, engine: string, query: RecordedRequest["query"]): Record<string, unknown> {
  const id = hex(12);
  const now = new Date()
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d{3}Z$/, " UTC");
  const google =
    engine === "google"
      ? {
          google_url: `https://www.google.com/search?q=${encodeURIComponent(query.q ?? "")}&oq=${encodeURIComponent(query.q ?? "")}&hl=${query.hl ?? "en"}&gl=${query.gl ?? "us"}&sourceid=chrome&ie=UTF-8`,
        }
      : {};
  return {
    id,
    status: "Success",
    json_endpoint: `${origin}/searches/${hex(8)}/${id}.json`,
    created_at: now,
    processed_at: now,
    ...google,
    raw_html_file: `${origin}/searches/${hex(8)}/${id}.html`,
    total_time_taken: 1.84,
  };
}

function searchParameters(engine: string, query: RecordedRequest["query"]): Record<string, string> {
  const out: Record<string, string> = { engine };
  for (const key of ["q", "location_requested", "location_used", "google_domain", "hl", "gl", "device", "page_token"]) {
    const value = query[key];
    if (value !== undefined) out[key] = value;
  }
  if (engine === "google") {
    out.google_domain ??= "google.com";
    out.device ??= "desktop";
  }
  return out;
}

export interface FakeSerpApi extends FakeVendor<SerpApiBehaviour> {
  /** The page tokens handed out by "paged" searches and not redeemed yet, each with its query. */
  readonly pageTokens: ReadonlyMap<string, string>;
}

/**
 * A fake SerpApi (plain `fetch`, no SDK): `GET /search.json` (or `/search`) with
 * `engine=google&q=…&api_key=…[&gl=…&hl=…]` answers `{ search_metadata, search_parameters,
 * search_information, ai_overview: { text_blocks, references }, organic_results }`.
 *
 * `url` is `http://127.0.0.1:PORT`: fetch `${fake.url}/search.json?…`. With the "paged" behaviour
 * the google search answers `ai_overview: { page_token, serpapi_link }` only; the client must then
 * `GET /search.json?engine=google_ai_overview&page_token=…&api_key=…`, which consumes the next
 * behaviour ("paged" and "ok" both give the full overview) and answers `{ search_metadata,
 * search_parameters, ai_overview }`. An unknown or missing `page_token` gets 400, a missing
 * `api_key` 401, an unknown engine 400 (none consumes a behaviour). Errors are `{ error: "…" }`.
 *
 * `engine=google_ai_mode&q=…[&gl=…&hl=…]` answers Google AI Mode as `{ search_metadata,
 * search_parameters, text_blocks, references, reconstructed_markdown }`, and `engine=bing_copilot&q=…`
 * Copilot as `{ search_metadata, search_parameters, header, text_blocks, references }`
 * (serpapi-answers.ts).
 */
export async function startFakeSerpApi(): Promise<FakeSerpApi> {
  const pageTokens = new Map<string, string>();
  const validate = (request: RecordedRequest): { status: number; body: unknown } | undefined => {
    if (request.method !== "GET" || (request.path !== "/search.json" && request.path !== "/search")) return undefined;
    if (!request.query.api_key) return { status: 401, body: { error: NO_KEY } };
    const engine = request.query.engine ?? "google";
    if (ANSWER_ENGINES.has(engine) || engine === "google") {
      return request.query.q ? undefined : { status: 400, body: { error: "Missing query `q` parameter." } };
    }
    if (engine === "google_ai_overview") {
      const token = request.query.page_token;
      if (!token) return { status: 400, body: { error: "Missing query `page_token` parameter." } };
      return pageTokens.has(token)
        ? undefined
        : { status: 400, body: { error: "Invalid `page_token` parameter. The token may have expired." } };
    }
    return { status: 400, body: { error: `Unsupported \`${engine}\` search engine.` } };
  };
  const fake = await startFakeVendor<SerpApiBehaviour>({
    basePath: "",
    serves: (request) => request.method === "GET" && (request.path === "/search.json" || request.path === "/search"),
    notFound: (request) => ({ status: 404, body: errorBody(404, request) }),
    passive: validate,
    rateLimitHeaders: () => ({ "retry-after": "1" }),
    errorBody,
    commonHeaders: () => ({ "x-request-id": base64url(12) }),
    reply: ({ behaviour, answer, request, origin }) => {
      const engine = request.query.engine ?? "google";
      const query = request.query;
      if (ANSWER_ENGINES.has(engine)) {
        const head = {
          search_metadata: searchMetadata(origin, engine, query),
          search_parameters: searchParameters(engine, query),
        };
        if (behaviour === "no_answer") {
          return { status: 200, body: { ...head, error: "Google hasn't returned any results for this query." } };
        }
        const answerBody =
          engine === "bing_copilot" ? buildCopilotBody(answer) : buildAiModeBody(answer, behaviour === "markdown_only");
        return { status: 200, body: { ...head, ...answerBody } };
      }
      if (engine === "google_ai_overview") {
        const token = query.page_token ?? "";
        const q = pageTokens.get(token) ?? "";
        pageTokens.delete(token);
        return {
          status: 200,
          body: {
            search_metadata: searchMetadata(origin, engine, query),
            search_parameters: searchParameters(engine, query),
            ai_overview: buildAiOverview(answer, q),
          },
        };
      }
      const q = query.q ?? "";
      const cited = uniqueCitations(answer.citations);
      let aiOverview: unknown;
      if (behaviour === "paged") {
        const token = `KIVu-nictZ${base64url(96)}`;
        pageTokens.set(token, q);
        const link = new URL("/search.json", origin);
        link.searchParams.set("engine", "google_ai_overview");
        link.searchParams.set("page_token", token);
        aiOverview = { page_token: token, serpapi_link: link.toString() };
      } else if (behaviour === "overview_error") {
        aiOverview = { error: "AI Overview failed to load. Please try again later." };
      } else {
        aiOverview = buildAiOverview(answer, q);
      }
      return {
        status: 200,
        body: {
          search_metadata: searchMetadata(origin, engine, query),
          search_parameters: searchParameters(engine, query),
          search_information: {
            query_displayed: q,
            total_results: 1_250_000,
            time_taken_displayed: 0.41,
            organic_results_state: "Results for exact spelling",
          },
          ai_overview: aiOverview,
          organic_results: cited.map((citation, index) => ({
            position: index + 1,
            title: citation.title,
            link: citation.url,
            redirect_link: `https://www.google.com/url?sa=t&url=${encodeURIComponent(citation.url)}`,
            displayed_link: `https://${domainOf(citation.url)} › …`,
            snippet: answer.text.slice(0, 150),
            source: sourceName(citation.url),
          })),
        },
      };
    },
  });
  return Object.assign(fake, { pageTokens });
}
