import { randomBytes, randomUUID } from "node:crypto";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";

/**
 * The small core every fake vendor is built on: a real HTTP server on 127.0.0.1 that records each
 * request, consumes one scripted behaviour per request it serves, and answers with the vendor's wire
 * format. A vendor module only says which routes it serves and how its bodies look.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** What every fake can be told to do with the next request. */
export type Behaviour =
  /** HTTP 200 with the answer set by `setAnswer`, in the vendor's format. */
  | "ok"
  /** HTTP 429, the vendor's error body, `retry-after: 1` (and `retry-after-ms: 1000` where the vendor's SDK reads it). */
  | "rate_limited"
  /** HTTP 500 with the vendor's error body. */
  | "server_error"
  /** The request is read and never answered; the socket is destroyed by `stop()`. */
  | "hang"
  /** HTTP 200, `content-type: application/json`, and a body cut in half: not valid JSON. */
  | "malformed"
  /** HTTP 200 with valid JSON lacking the expected structure (`{}`). */
  | "wrong_shape";

/** One request as the fake received it. */
export interface RecordedRequest {
  method: string;
  /** The path without the query string, e.g. `/v1/responses`. */
  path: string;
  /** Query parameters (the last value wins when one is repeated). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or null when it is empty or not JSON. */
  body: JsonValue | null;
  /** The body as received. */
  rawBody: string;
  /** `performance.now()` when the request had fully arrived: the gap between two shows a client's wait. */
  at: number;
}

export interface Citation {
  url: string;
  title: string;
}

/** What a normal answer says; each fake turns it into its vendor's JSON. */
export interface FakeAnswer {
  text: string;
  citations: Citation[];
  /** The model the vendor reports; by default the one the request asked for. */
  model?: string;
  /**
   * The web searches the vendor reports it ran, in its own field, by those that report them; by
   * default one search, the prompt as asked.
   */
  searches?: string[];
}

interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Serialised with JSON.stringify, or sent as is when a string. */
  body: unknown;
}

/** Everything a fake vendor offers a test. `B` is the behaviours it understands. */
export interface FakeVendor<B extends string = Behaviour> {
  /** Base URL to give the SDK (see each start function for whether it ends in `/v1`). */
  readonly url: string;
  /** `http://127.0.0.1:PORT`, without any path. */
  readonly origin: string;
  /** Every request received, in order, including those on routes the fake does not serve. */
  readonly requests: RecordedRequest[];
  /** What a normal ("ok") answer contains from now on. */
  setAnswer(answer: FakeAnswer): void;
  /**
   * Chooses each normal answer from the request (a conversation's turns, a persona's context):
   * what it returns wins over `setAnswer`'s; undefined falls back to it. Null removes it.
   */
  setResponder(responder: ((request: RecordedRequest) => FakeAnswer | undefined) | null): void;
  /** A queue of behaviours, one consumed per served request; the last one repeats. Default: "ok". */
  script(...behaviours: B[]): void;
  /** Closes the server and destroys every open socket, hanging ones included. */
  stop(): Promise<void>;
}

interface ReplyContext<B extends string> {
  behaviour: B;
  request: RecordedRequest;
  answer: FakeAnswer;
  origin: string;
}

/** How one vendor speaks. */
export interface VendorDefinition<B extends string> {
  /** Appended to the origin to make `url` ("" or "/v1"). */
  basePath: string;
  /** Whether the fake serves this request; others get `notFound` and consume no behaviour. */
  serves(request: RecordedRequest): boolean;
  /** The vendor's answer for an unserved route. */
  notFound(request: RecordedRequest): Reply;
  /** Headers of the 429 answer. */
  rateLimitHeaders(): Record<string, string>;
  /** The vendor's error body for a status it sends on its own ("rate_limited", "server_error"). */
  errorBody(status: number, request: RecordedRequest): unknown;
  /** Headers every answer carries (request ids and the like). */
  commonHeaders?(): Record<string, string>;
  /** The 200 answer, and any vendor-specific behaviour (B beyond the common ones). */
  reply(context: ReplyContext<B>): Reply;
  /** Requests served without consuming a behaviour (e.g. a redirect endpoint); answered by `reply` with "ok". */
  passive?(request: RecordedRequest): Reply | undefined;
}

export const DEFAULT_ANSWER: FakeAnswer = {
  text: "Acme Widgets is the most recommended widget maker. Reviewers praise its durability and price.",
  citations: [
    { url: "https://www.example.com/best-widgets", title: "The best widgets of the year" },
    { url: "https://reviews.example.org/acme", title: "Acme Widgets review" },
  ],
};

function parseBody(raw: string): JsonValue | null {
  if (raw.length === 0) return null;
  try {
    return JSON.parse(raw) as JsonValue;
  } catch {
    return null;
  }
}

function record(req: IncomingMessage, raw: string): RecordedRequest {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  return {
    method: req.method ?? "GET",
    path: url.pathname,
    query,
    headers: req.headers,
    body: parseBody(raw),
    rawBody: raw,
    at: performance.now(),
  };
}

function send(res: ServerResponse, reply: Reply, extra: Record<string, string>): void {
  const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
  const payload = Buffer.from(body, "utf8");
  res.writeHead(reply.status, {
    "content-type": "application/json; charset=utf-8",
    ...extra,
    ...reply.headers,
    "content-length": String(payload.length),
  });
  res.end(payload);
}

/** Starts a fake vendor on an ephemeral port of 127.0.0.1. */
export async function startFakeVendor<B extends string>(
  definition: VendorDefinition<B | Behaviour>,
): Promise<FakeVendor<B | Behaviour>> {
  const requests: RecordedRequest[] = [];
  let queue: (B | Behaviour)[] = ["ok"];
  let answer: FakeAnswer = DEFAULT_ANSWER;
  let responder: ((request: RecordedRequest) => FakeAnswer | undefined) | null = null;
  let origin = "";

  const answerFor = (request: RecordedRequest): FakeAnswer => responder?.(request) ?? answer;

  const next = (): B | Behaviour => {
    const behaviour = queue.length > 1 ? queue.shift() : queue[0];
    return behaviour ?? "ok";
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = record(req, Buffer.concat(chunks).toString("utf8"));
      requests.push(request);
      const common = definition.commonHeaders?.() ?? {};
      const passive = definition.passive?.(request);
      if (passive !== undefined) return send(res, passive, common);
      if (!definition.serves(request)) return send(res, definition.notFound(request), common);
      const behaviour = next();
      const answer = answerFor(request);
      switch (behaviour) {
        case "hang":
          return;
        case "rate_limited":
          return send(
            res,
            { status: 429, headers: definition.rateLimitHeaders(), body: definition.errorBody(429, request) },
            common,
          );
        case "server_error":
          return send(res, { status: 500, body: definition.errorBody(500, request) }, common);
        case "wrong_shape":
          return send(res, { status: 200, body: {} }, common);
        case "malformed": {
          const whole = definition.reply({ behaviour: "ok", request, answer, origin });
          const text = typeof whole.body === "string" ? whole.body : JSON.stringify(whole.body);
          // Any proper prefix of a JSON object is invalid JSON: a response cut off mid-way.
          return send(res, { status: 200, body: text.slice(0, Math.max(1, Math.floor(text.length / 2))) }, common);
        }
        default:
          return send(res, definition.reply({ behaviour, request, answer, origin }), common);
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;

  return {
    url: `${origin}${definition.basePath}`,
    origin,
    requests,
    setAnswer(value: FakeAnswer): void {
      answer = { ...value, citations: [...value.citations] };
    },
    setResponder(value): void {
      responder = value;
    },
    script(...behaviours: (B | Behaviour)[]): void {
      queue = behaviours.length > 0 ? [...behaviours] : ["ok"];
    },
    stop(): Promise<void> {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Small helpers shared by the vendor modules.

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function base62(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += BASE62[byte % 62];
  return out;
}

export function hex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

export function base64url(bytes: number): string {
  return randomBytes(bytes).toString("base64url");
}

export function base64(bytes: number): string {
  return randomBytes(bytes).toString("base64");
}

export function uuid(): string {
  return randomUUID();
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The host name of a URL without a leading `www.` (the URL itself when it does not parse). */
export function domainOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/** A rough token count, as vendors report usage. */
export function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** The citations without repeated URLs, in first-seen order. */
export function uniqueCitations(citations: readonly Citation[]): Citation[] {
  const seen = new Set<string>();
  return citations.filter((citation) => {
    if (seen.has(citation.url)) return false;
    seen.add(citation.url);
    return true;
  });
}

/**
 * Splits text into sentences whose concatenation is exactly the text: each piece keeps the
 * whitespace that follows it.
 */
export function sentencePieces(text: string): string[] {
  const pieces: string[] = [];
  const boundary = /[.!?]+["')\]]*\s+/g;
  let start = 0;
  for (let match = boundary.exec(text); match !== null; match = boundary.exec(text)) {
    const end = match.index + match[0].length;
    if (end < text.length) {
      pieces.push(text.slice(start, end));
      start = end;
    }
  }
  if (start < text.length || pieces.length === 0) pieces.push(text.slice(start));
  return pieces;
}

/** The trimmed sentences of a text (empty ones dropped). */
export function sentences(text: string): string[] {
  return sentencePieces(text)
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0);
}

/**
 * Splits text into at most `count` consecutive pieces whose concatenation is exactly the text:
 * at sentence ends when it has several sentences, else at word boundaries.
 */
export function splitInto(text: string, count: number): string[] {
  const pieces = sentencePieces(text);
  if (pieces.length >= 2) {
    const size = Math.ceil(pieces.length / Math.min(count, pieces.length));
    const groups: string[] = [];
    for (let index = 0; index < pieces.length; index += size) groups.push(pieces.slice(index, index + size).join(""));
    return groups;
  }
  // Too few sentences: cut at word boundaries instead.
  const words = text.split(/(?<=\s)/);
  if (words.length < 2) return [text];
  const parts = Math.min(count, words.length);
  const size = Math.ceil(words.length / parts);
  const groups: string[] = [];
  for (let index = 0; index < words.length; index += size) groups.push(words.slice(index, index + size).join(""));
  return groups;
}

function textsIn(value: JsonValue | undefined, out: string[]): void {
  if (typeof value === "string") {
    out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) textsIn(item, out);
    return;
  }
  if (value !== null && typeof value === "object") {
    for (const key of ["text", "content", "parts", "input"]) textsIn(value[key], out);
  }
}

/**
 * The text of the last user turn in a chat-like body, used as the "search query" the vendor
 * reports: `messages` (OpenAI chat, Anthropic), `input` (OpenAI Responses) or `contents` (Gemini).
 */
export function lastUserText(body: JsonValue | null, fallback = "search"): string {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return fallback;
  const turns = body.messages ?? body.contents ?? body.input;
  if (typeof turns === "string") return turns || fallback;
  if (!Array.isArray(turns)) return fallback;
  for (let index = turns.length - 1; index >= 0; index--) {
    const turn = turns[index];
    if (turn === null || typeof turn !== "object" || Array.isArray(turn)) continue;
    if (turn.role !== undefined && turn.role !== "user") continue;
    const out: string[] = [];
    textsIn(turn.content ?? turn.parts, out);
    const text = out.join(" ").trim();
    if (text.length > 0) return text;
  }
  return fallback;
}

/** The value of a string field of a JSON object body, if any. */
export function stringField(body: JsonValue | null, key: string): string | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const value = body[key];
  return typeof value === "string" ? value : undefined;
}

/** A JSON object field of a body, if any. */
export function field(body: JsonValue | null, key: string): JsonValue | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  return body[key];
}
