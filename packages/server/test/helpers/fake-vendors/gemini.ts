import {
  type Candidate,
  FinishReason,
  type GenerateContentResponseUsageMetadata,
  type GroundingChunk,
  type GroundingSupport,
  MediaModality,
} from "@google/genai";
import {
  type Behaviour,
  base64url,
  type Citation,
  domainOf,
  type FakeAnswer,
  type FakeVendor,
  field,
  lastUserText,
  type RecordedRequest,
  sentencePieces,
  startFakeVendor,
  tokens,
  uniqueCitations,
} from "./server.ts";

/** Gemini's own extra behaviour: HTTP 503 `UNAVAILABLE` ("The model is overloaded"). */
type GeminiBehaviour = Behaviour | "overloaded";

/** The wire body of `generateContent`. */
interface GenerateContentWireBody {
  candidates: Candidate[];
  usageMetadata: GenerateContentResponseUsageMetadata;
  modelVersion: string;
  responseId: string;
}

const REAL_REDIRECT_PREFIX = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/";
const GENERATE = /^\/(v1beta|v1|v1alpha)\/models\/([^/:]+):generateContent$/;
const REDIRECT = /^\/grounding-api-redirect\/([^/]+)$/;

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** Google's error envelope: `{ error: { code, message, status, details? } }`. */
function geminiErrorBody(status: number, request: RecordedRequest): unknown {
  const name = STATUS_NAMES[status] ?? "UNKNOWN";
  if (status === 429) {
    return {
      error: {
        code: 429,
        message:
          "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
        status: name,
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [
              {
                quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                quotaId: "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
              },
            ],
          },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1s" },
        ],
      },
    };
  }
  const message =
    status === 404
      ? `Requested entity was not found. (${request.method} ${request.path})`
      : status === 503
        ? "The model is overloaded. Please try again later."
        : "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting";
  return { error: { code: status, message, status: name } };
}

function renderedContent(query: string): string {
  const href = `https://www.google.com/search?q=${encodeURIComponent(query)}&client=app-vertex-grounding&safesearch=active`;
  return (
    "<style>\n.container {\n  align-items: center;\n  border-radius: 8px;\n  display: flex;\n  font-family: Google Sans, Roboto, sans-serif;\n  font-size: 14px;\n}\n.chip {\n  display: inline-block;\n  border: solid 1px;\n  border-radius: 16px;\n  padding: 5px 16px;\n}\n</style>\n" +
    `<div class="container">\n  <div class="headline">\n    <svg class="logo-light" width="18" height="18" viewBox="9 9 35 35" fill="none"></svg>\n  </div>\n  <div class="carousel">\n    <a class="chip" href="${href}">${query}</a>\n  </div>\n</div>\n`
  );
}

/**
 * Builds a `generateContent` answer with Google Search grounding, as the real API shapes it:
 * one text part holding the answer's text; `groundingChunks` with one `{ web: { uri, title } }`
 * per cited URL where `uri` is an opaque `vertexaisearch.cloud.google.com/grounding-api-redirect/…`
 * URL (see `redirects`) and `title` is the source's DOMAIN (not the page title); and one
 * `groundingSupports` entry per sentence pointing at the chunks. Segment offsets are UTF-8 BYTE
 * offsets into the part's text, and `startIndex` is omitted when it is 0 (proto3 JSON drops
 * default values), as the real API does.
 */
export function buildGenerateContentBody(
  answer: FakeAnswer,
  request: RecordedRequest,
  chunkUri: (citation: Citation) => string,
): GenerateContentWireBody {
  const match = GENERATE.exec(request.path);
  const model = answer.model ?? match?.[2] ?? "gemini-2.5-flash";
  const query = lastUserText(request.body);
  const cited = uniqueCitations(answer.citations);
  const chunks: GroundingChunk[] = cited.map((citation) => ({
    web: { uri: chunkUri(citation), title: domainOf(citation.url) },
  }));
  const supports: GroundingSupport[] = [];
  if (chunks.length > 0) {
    let offset = 0;
    sentencePieces(answer.text).forEach((piece, index) => {
      const text = piece.trimEnd();
      const start = offset;
      const end = start + Buffer.byteLength(text, "utf8");
      offset += Buffer.byteLength(piece, "utf8");
      if (text.trim().length === 0) return;
      const indices = [index % chunks.length];
      if (chunks.length > 1 && index === 0) indices.push(1);
      supports.push({
        segment: { ...(start > 0 ? { startIndex: start } : {}), endIndex: end, text },
        groundingChunkIndices: indices,
        confidenceScores: indices.map((_, position) => (position === 0 ? 0.93 : 0.71)),
      });
    });
  }
  const promptTokens = tokens(query) + 8;
  const candidateTokens = tokens(answer.text);
  const toolTokens = 120;
  return {
    candidates: [
      {
        content: { role: "model", parts: [{ text: answer.text }] },
        finishReason: FinishReason.STOP,
        index: 0,
        groundingMetadata: {
          webSearchQueries: answer.searches ?? [query],
          searchEntryPoint: { renderedContent: renderedContent(query) },
          ...(chunks.length > 0 ? { groundingChunks: chunks, groundingSupports: supports } : {}),
        },
      },
    ],
    usageMetadata: {
      promptTokenCount: promptTokens,
      candidatesTokenCount: candidateTokens,
      toolUsePromptTokenCount: toolTokens,
      totalTokenCount: promptTokens + candidateTokens + toolTokens,
      promptTokensDetails: [{ modality: MediaModality.TEXT, tokenCount: promptTokens }],
      toolUsePromptTokensDetails: [{ modality: MediaModality.TEXT, tokenCount: toolTokens }],
    },
    modelVersion: model,
    responseId: base64url(16),
  };
}

export interface FakeGeminiOptions {
  /**
   * Make the chunk URIs point at this fake (`<origin>/grounding-api-redirect/<token>`) instead of
   * the real `https://vertexaisearch.cloud.google.com/grounding-api-redirect/<token>`, so a client
   * can actually follow them (the fake answers them with a 302 to the source URL).
   */
  redirectsToSelf?: boolean;
}

export interface FakeGemini extends FakeVendor<GeminiBehaviour> {
  /** Every redirect URI handed out, mapped to the source URL it stands for. */
  readonly redirects: ReadonlyMap<string, string>;
}

/**
 * A fake Gemini API (`ai.models.generateContent`, i.e.
 * `POST /v1beta/models/<model>:generateContent`, with the key in the `x-goog-api-key` header).
 *
 * `url` is `http://127.0.0.1:PORT` WITHOUT a version: pass it as
 * `new GoogleGenAI({ apiKey, httpOptions: { baseUrl: fake.url } })` (the SDK appends `/v1beta`,
 * or `/<apiVersion>`, then `/models/<model>:generateContent`; `/v1` and `/v1alpha` are served too).
 * Errors are `{ error: { code, message, status } }` (429 `RESOURCE_EXHAUSTED` also carries a
 * `RetryInfo` detail with `retryDelay: "1s"`, plus a `retry-after: 1` header, which the SDK does
 * not read); "overloaded" answers 503 `UNAVAILABLE`. `GET /grounding-api-redirect/<token>`
 * answers 302 to the source URL for any URI this fake handed out (no script consumed).
 */
export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
  const redirects = new Map<string, string>();
  const tokensToUrls = new Map<string, string>();
  let selfOrigin = "";
  const chunkUri = (citation: Citation): string => {
    const token = `AUZIYQ${base64url(120)}`;
    const prefix = options.redirectsToSelf ? `${selfOrigin}/grounding-api-redirect/` : REAL_REDIRECT_PREFIX;
    const uri = `${prefix}${token}`;
    redirects.set(uri, citation.url);
    tokensToUrls.set(token, citation.url);
    return uri;
  };
  const fake = await startFakeVendor<GeminiBehaviour>({
    basePath: "",
    serves: (request) => request.method === "POST" && GENERATE.test(request.path),
    notFound: (request) => ({ status: 404, body: geminiErrorBody(404, request) }),
    rateLimitHeaders: () => ({ "retry-after": "1" }),
    errorBody: geminiErrorBody,
    commonHeaders: () => ({ vary: "Origin, X-Origin, Referer", "server-timing": "gfet4t7; dur=1200" }),
    passive: (request) => {
      const match = REDIRECT.exec(request.path);
      if (request.method !== "GET" || match === null) return undefined;
      const target = tokensToUrls.get(match[1] ?? "");
      if (target === undefined) return { status: 404, body: geminiErrorBody(404, request) };
      return { status: 302, headers: { location: target, "content-type": "text/html; charset=UTF-8" }, body: "" };
    },
    reply: ({ behaviour, answer, request }) => {
      if (behaviour === "overloaded") return { status: 503, body: geminiErrorBody(503, request) };
      const contents = field(request.body, "contents");
      // A conversation is `contents` alternating `user` and `model`, from the user and ending with them.
      const roles = Array.isArray(contents)
        ? contents.map((c) => (c !== null && typeof c === "object" && !Array.isArray(c) ? c.role : undefined))
        : [];
      if (roles.some((role, index) => role !== (index % 2 === 0 ? "user" : "model")) || roles.length % 2 === 0) {
        return {
          status: 400,
          body: {
            error: {
              code: 400,
              message: "Please ensure that multiturn requests alternate between user and model.",
              status: "INVALID_ARGUMENT",
            },
          },
        };
      }
      return { status: 200, body: buildGenerateContentBody(answer, request, chunkUri) };
    },
  });
  selfOrigin = fake.origin;
  return Object.assign(fake, { redirects });
}
