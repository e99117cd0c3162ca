import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { promisify } from "node:util";
import { type BrotliOptions, brotliDecompress, gunzip, inflate, type ZlibOptions } from "node:zlib";
import { ownValue } from "../../lib/own-keys.ts";

/**
 * The `fetch` the vendors' SDKs (OpenAI, Anthropic) are given: the same requests over Node's own
 * HTTP client with kept-alive connections, answering a standard `Response` once the whole body has
 * arrived (the engines never stream). The global `fetch` costs about 0.3–0.4 ms more of CPU per
 * request (its WHATWG streams): for a worker asking 32 answers at once, that was most of the time
 * an engine's next request waited behind the answers just in (issue 16). Anything that is not a
 * plain request body (a multipart upload: a batch's input file) goes through the global `fetch`.
 */
export const vendorFetch: typeof fetch = async (input, init = {}) => {
  const body = init.body;
  const plain = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
  if (!plain || (typeof input !== "string" && !(input instanceof URL))) return fetch(input, init);
  const url = input instanceof URL ? input : new URL(input);
  if (url.protocol !== "http:" && url.protocol !== "https:") return fetch(input, init);
  return sendPlain(url, init, agents);
};

export type Agents = { "http:": HttpAgent; "https:": HttpsAgent };

/**
 * The most a reply read through `vendorFetchVia` (a workspace's own endpoint) may be, on the wire
 * and decoded: an answer is a few KB, so a larger one is refused rather than held in memory.
 */
export const REPLY_LIMIT_BYTES = 8 * 1024 * 1024;

/** Why a reply past `limit` is refused: "refused: " makes it the engine's failure as it is (errors.ts). */
const tooLarge = (limit: number) =>
  new Error(`refused: the engine's reply is larger than ${Math.round(limit / (1024 * 1024))} MB`);

async function sendPlain(url: URL, init: RequestInit, through: Agents, limit?: number): Promise<Response> {
  const headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br" };
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const body = init.body as string | Uint8Array | null | undefined;
  const response = await send(
    url,
    init.method ?? "GET",
    headers,
    body ?? undefined,
    init.signal ?? undefined,
    through,
    limit,
  );
  return toResponse(response.message, await decoded(response.message, response.body, limit));
}

// Idle connections are closed after 4 s, before the vendors' servers close them (5 s and more),
// so that a request is never sent on a connection the other end is closing.
const agents: Agents = {
  "http:": new HttpAgent({ keepAlive: true, timeout: 4_000 }),
  "https:": new HttpsAgent({ keepAlive: true, timeout: 4_000 }),
};

/**
 * `vendorFetch` through agents of the caller's own (one whose `lookup` refuses some addresses):
 * plain request bodies only, never a redirect followed (Node's client follows none), and a reply
 * of at most REPLY_LIMIT_BYTES, compressed or not (a gzip bomb is stopped as it inflates).
 */
export function vendorFetchVia(through: Agents, refuse: (url: URL) => string | null): typeof fetch {
  return async (input, init = {}) => {
    const body = init.body;
    const plain = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!plain || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new Error("refused: only plain http(s) requests are sent this way");
    }
    const refused = refuse(url);
    if (refused !== null) throw new Error(`refused: ${refused}`);
    return sendPlain(url, init, through, REPLY_LIMIT_BYTES);
  };
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal | undefined,
  through: Agents,
  limit = Number.POSITIVE_INFINITY,
): Promise<{ message: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const options = { method, headers, agent: through[url.protocol as "http:" | "https:"], signal };
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, options, (message) => {
      // Past the limit, the connection is dropped: nothing more of the reply is read.
      const refuse = () => {
        reject(tooLarge(limit));
        message.destroy();
        request.destroy();
      };
      if (Number(message.headers["content-length"] ?? 0) > limit) {
        refuse();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      message.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) refuse();
        else chunks.push(chunk);
      });
      message.on("end", () => resolve({ message, body: Buffer.concat(chunks) }));
      message.on("error", reject);
      message.on("aborted", () => reject(new Error("the connection closed before the response ended")));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const decoders: Record<string, (buffer: Buffer, options: ZlibOptions & BrotliOptions) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  "x-gzip": promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

async function decoded(message: IncomingMessage, body: Buffer, limit?: number): Promise<Buffer> {
  const encoding = String(message.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const decode = ownValue(decoders, encoding);
  if (decode === undefined || body.length === 0) return body;
  if (limit === undefined) return decode(body, {});
  try {
    // Inflating stops at the limit: a few KB that would expand to gigabytes are refused.
    return await decode(body, { maxOutputLength: limit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError) {
      throw tooLarge(limit);
    }
    throw error;
  }
}

/** Statuses whose responses have no body, which `Response` refuses to be given one. */
const EMPTY = new Set([101, 204, 205, 304]);

function toResponse(message: IncomingMessage, body: Buffer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    // The body is handed over decoded, so its encoding and length no longer describe it.
    if (value === undefined || name === "content-encoding" || name === "content-length") continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const status = message.statusCode ?? 502;
  return new Response(EMPTY.has(status) ? null : body, { status, statusText: message.statusMessage ?? "", headers });
}
