import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate } from "node:zlib";
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

async function sendPlain(url: URL, init: RequestInit, through: Agents): Promise<Response> {
  const headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br" };
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const body = init.body as string | Uint8Array | null | undefined;
  const response = await send(url, init.method ?? "GET", headers, body ?? undefined, init.signal ?? undefined, through);
  return toResponse(response.message, await decoded(response.message, response.body));
}

// Idle connections are closed after 4 s, before the vendors' servers close them (5 s and more),
// so that a request is never sent on a connection the other end is closing.
const agents: Agents = {
  "http:": new HttpAgent({ keepAlive: true, timeout: 4_000 }),
  "https:": new HttpsAgent({ keepAlive: true, timeout: 4_000 }),
};

/**
 * `vendorFetch` through agents of the caller's own (one whose `lookup` refuses some addresses):
 * plain request bodies only, and never a redirect followed (Node's client follows none).
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
    return sendPlain(url, init, through);
  };
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal | undefined,
  through: Agents,
): Promise<{ message: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const options = { method, headers, agent: through[url.protocol as "http:" | "https:"], signal };
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, options, (message) => {
      const chunks: Buffer[] = [];
      message.on("data", (chunk: Buffer) => chunks.push(chunk));
      message.on("end", () => resolve({ message, body: Buffer.concat(chunks) }));
      message.on("error", reject);
      message.on("aborted", () => reject(new Error("the connection closed before the response ended")));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const decoders: Record<string, (buffer: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  "x-gzip": promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

async function decoded(message: IncomingMessage, body: Buffer): Promise<Buffer> {
  const encoding = String(message.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const decode = ownValue(decoders, encoding);
  return decode === undefined || body.length === 0 ? body : decode(body);
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
