import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { type HostResolver, isIpLiteral, isPublicAddress, publicOnlyLookup } from "../../lib/addresses.ts";

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** An attempt's result, as a value: failures are expected and retried, not thrown. */
export interface WebhookResponse {
  /** Null when no HTTP response came back (refused, timed out, blocked). */
  statusCode: number | null;
  latencyMs: number;
  /** The first kilobyte of the response body, for the delivery log. */
  excerpt: string | null;
  error: string | null;
  /** The receiver's Retry-After header, when it sent one (Slack's 429). */
  retryAfter?: string;
}

/** Sends one signed delivery: the real implementation over HTTP, or a receiver fake in tests. */
export interface WebhookTransport {
  send(request: WebhookRequest): Promise<WebhookResponse>;
  /** Closes what the transport keeps open (its connections), once its worker has stopped. */
  close?(): void;
}

export interface HttpTransportOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  resolver: HostResolver;
  userAgent?: string;
}

const EXCERPT_BYTES = 1_024;
/** Requests in flight to one receiver at once; more wait their turn, in order. */
const MAX_SOCKETS_PER_RECEIVER = 16;
const IDLE_SOCKET_MS = 4_000;

class BlockedAddressError extends Error {}

/**
 * POSTs with a hard timeout, never follows redirects (Node's http client does not), and resolves
 * the host itself: every resolved address must be public, and the socket connects to the address
 * that was checked, so DNS rebinding between the check and the connection cannot reach inside.
 */
export class HttpTransport implements WebhookTransport {
  readonly #options: HttpTransportOptions;
  /**
   * Connections are kept alive and reused per receiver (host and port): a batch of deliveries to
   * one subscription costs one handshake, not one each. A kept connection goes to an address that
   * was checked when it was opened; idle ones close after a few seconds, before a typical server's
   * own keep-alive timeout (Node's is 5 s), so a reused socket is rarely found closed.
   */
  readonly #agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_RECEIVER, timeout: IDLE_SOCKET_MS }),
    https: new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_RECEIVER, timeout: IDLE_SOCKET_MS }),
  };

  constructor(options: HttpTransportOptions) {
    this.#options = options;
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }

  // Read at each connection: the options are set by the constructor, after this field.
  #lookup: LookupFunction = publicOnlyLookup(
    { resolve: (hostname) => this.#options.resolver.resolve(hostname) },
    () => this.#options.allowPrivate,
    (hostname, address) => new BlockedAddressError(`${hostname} resolved to ${address}, which is not a public address`),
  );

  send(request: WebhookRequest): Promise<WebhookResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (result: Omit<WebhookResponse, "latencyMs">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, latencyMs: elapsed() });
      };
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        finish({ statusCode: null, excerpt: null, error: "invalid URL" });
        return;
      }
      if (url.port === "0") {
        finish({ statusCode: null, excerpt: null, error: "refused: port 0" });
        return;
      }
      const hostname = url.hostname.replace(/^\[|\]$/g, "");
      // An IP literal is connected to without a lookup: check it here.
      if (!this.#options.allowPrivate && isIpLiteral(hostname) && !isPublicAddress(hostname)) {
        finish({ statusCode: null, excerpt: null, error: `refused: ${hostname} is not a public address` });
        return;
      }
      const secure = url.protocol === "https:";
      const client = secure ? https : http;
      const req = client.request(
        url,
        {
          method: "POST",
          headers: {
            ...request.headers,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(request.body)),
            "user-agent": this.#options.userAgent ?? "Sightline-Webhooks/1.0",
          },
          lookup: this.#lookup,
          agent: secure ? this.#agents.https : this.#agents.http,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            if (size < EXCERPT_BYTES) chunks.push(chunk);
            size += chunk.length;
            if (size >= EXCERPT_BYTES) res.destroy();
          });
          const retryAfter = res.headers["retry-after"];
          const done = () =>
            finish({
              statusCode: res.statusCode ?? null,
              excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8"),
              error: null,
              ...(retryAfter === undefined ? {} : { retryAfter }),
            });
          res.on("end", done);
          res.on("close", done);
          res.on("error", done);
        },
      );
      timer = setTimeout(() => {
        req.destroy(new Error(`timed out after ${this.#options.timeoutMs} ms`));
      }, this.#options.timeoutMs);
      req.on("error", (error) =>
        finish({
          statusCode: null,
          excerpt: null,
          error: error instanceof BlockedAddressError ? `refused: ${error.message}` : error.message,
        }),
      );
      req.end(request.body);
    });
  }
}
