import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { type HostResolver, isIpLiteral, isPublicAddress, publicOnlyLookup } from "../../lib/addresses.ts";

/** What one page fetch may take: the limits hold whatever the site does. */
export const PAGE_LIMITS = {
  /** The body read at most; the rest of a longer page is not read. */
  maxBytes: 768 * 1024,
  /** The whole page within this: headers and body, every redirect included. */
  timeoutMs: 5_000,
  /** Redirects followed, each one checked like the first address. */
  maxRedirects: 3,
} as const;

export const USER_AGENT = "SightlineBot/1.0 (+https://github.com/sightline; reads a few public pages once, on request)";

export type PageResult =
  | { ok: true; url: string; status: number; contentType: string; body: string; truncated: boolean }
  | { ok: false; url: string; reason: string };

/** Fetches one page for the website reader; a fake in tests stands for the network only, never for the rules. */
export interface PageFetcher {
  /** `deadline` (a `Date.now()` time): the reading's whole budget, which the page's own limit never outlasts. */
  get(url: string, deadline?: number): Promise<PageResult>;
}

/** What a site's reading says of a page it had no time left for. */
export const OUT_OF_TIME = "not read: the time for reading the site ran out";

/** The ports a public website is read on (when private addresses are not allowed): the web's usual ones. */
const WEB_PORTS = new Set(["", "80", "443", "8080", "8443"]);

export interface WebsitePolicy {
  /** SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: the same switch as every other outbound request. */
  allowPrivate: boolean;
  resolver: HostResolver;
  /** PAGE_LIMITS by default (tests shorten them). */
  limits?: Partial<{ maxBytes: number; timeoutMs: number; maxRedirects: number }>;
}

class Refused extends Error {}

/**
 * GETs public pages: http(s) only, no credentials, port 0 refused, every address the host resolves
 * to must be public (lib/addresses.ts; the socket connects to the address checked, so DNS
 * rebinding cannot reach inside), redirects followed by hand and checked again, the body read up
 * to a size and the whole within a time, and nothing run: the text is only read.
 */
export class HttpPageFetcher implements PageFetcher {
  readonly #policy: WebsitePolicy;
  readonly #limits: { maxBytes: number; timeoutMs: number; maxRedirects: number };

  constructor(policy: WebsitePolicy) {
    this.#policy = policy;
    this.#limits = { ...PAGE_LIMITS, ...policy.limits };
  }

  // Read at each connection: the policy is set by the constructor, after this field.
  #lookup: LookupFunction = publicOnlyLookup(
    { resolve: (hostname) => this.#policy.resolver.resolve(hostname) },
    () => this.#policy.allowPrivate,
    (hostname, address) => new Refused(`${hostname} resolves to ${address}, which is not a public address`),
  );

  /** Why `url` may not be asked at all, or null. */
  #refusal(url: URL): string | null {
    if (url.protocol !== "http:" && url.protocol !== "https:") return "only http and https addresses are read";
    if (url.username !== "" || url.password !== "") return "an address with credentials is not read";
    if (url.port === "0") return "port 0 is not an address";
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (!this.#policy.allowPrivate && isIpLiteral(host) && !isPublicAddress(host)) {
      return `${host} is not a public address`;
    }
    // Other ports are other services (databases, admin consoles…), not a brand's website.
    if (!this.#policy.allowPrivate && !WEB_PORTS.has(url.port)) {
      return `port ${url.port} is not a website's; only 80, 443, 8080 and 8443 are read`;
    }
    return null;
  }

  async get(raw: string, deadline = Number.POSITIVE_INFINITY): Promise<PageResult> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, url: raw, reason: "not an address" };
    }
    // One time for the page, its redirects included, and never past the reading's.
    const own = Date.now() + this.#limits.timeoutMs;
    const until = Math.min(own, deadline);
    const late = own <= deadline ? `the site took longer than ${this.#limits.timeoutMs / 1000} s` : OUT_OF_TIME;
    for (let hop = 0; hop <= this.#limits.maxRedirects; hop++) {
      const refusal = this.#refusal(url);
      if (refusal !== null) return { ok: false, url: url.toString(), reason: `refused: ${refusal}` };
      const left = until - Date.now();
      if (left <= 0) return { ok: false, url: url.toString(), reason: late };
      const answer = await this.#once(url, left, late);
      if (answer.kind === "page") return answer.result;
      if (answer.kind === "failed") return { ok: false, url: url.toString(), reason: answer.reason };
      try {
        url = new URL(answer.location, url);
      } catch {
        return { ok: false, url: url.toString(), reason: "a redirect to no valid address" };
      }
    }
    return { ok: false, url: url.toString(), reason: `more than ${this.#limits.maxRedirects} redirects` };
  }

  #once(
    url: URL,
    timeoutMs: number,
    late: string,
  ): Promise<
    { kind: "page"; result: PageResult } | { kind: "redirect"; location: string } | { kind: "failed"; reason: string }
  > {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (value: Parameters<typeof resolve>[0]) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      };
      const client = url.protocol === "https:" ? https : http;
      const req = client.get(
        url,
        {
          headers: { "user-agent": USER_AGENT, accept: "text/html,text/plain;q=0.9,*/*;q=0.1" },
          lookup: this.#lookup,
          agent: false,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const location = res.headers.location;
          if (status >= 300 && status < 400 && location !== undefined) {
            res.resume();
            finish({ kind: "redirect", location });
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          let truncated = false;
          res.on("data", (chunk: Buffer) => {
            const room = this.#limits.maxBytes - size;
            chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
            size += Math.min(chunk.length, room);
            if (size >= this.#limits.maxBytes) {
              truncated = true;
              res.destroy();
            }
          });
          const done = () =>
            finish({
              kind: "page",
              result: {
                ok: true,
                url: url.toString(),
                status,
                contentType: String(res.headers["content-type"] ?? ""),
                body: Buffer.concat(chunks).toString("utf8"),
                truncated,
              },
            });
          res.on("end", done);
          res.on("close", done);
          res.on("error", done);
        },
      );
      // The whole page within the time, however slowly it comes: past it, nothing of it is kept.
      const timer = setTimeout(() => {
        finish({ kind: "failed", reason: late });
        req.destroy();
      }, timeoutMs);
      req.on("error", (error) =>
        finish({
          kind: "failed",
          reason: error instanceof Refused ? `refused: ${error.message}` : inPlainWords(error),
        }),
      );
    });
  }
}

/** A network error as a marketer can read it: what happened, not the TLS library's trace. */
function inPlainWords(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "no such domain was found";
  if (code === "ECONNREFUSED") return "the site refused the connection";
  if (code === "ECONNRESET" || code === "EPIPE") return "the site closed the connection";
  if (code === "ETIMEDOUT" || code === "ENETUNREACH" || code === "EHOSTUNREACH") return "the site could not be reached";
  if (
    code === "EPROTO" ||
    code.startsWith("ERR_SSL") ||
    code.startsWith("ERR_TLS") ||
    /certificate|ssl|tls/i.test(code)
  ) {
    return "the site did not answer securely over HTTPS";
  }
  if (code.startsWith("CERT_") || code.includes("SELF_SIGNED") || code.startsWith("UNABLE_TO_")) {
    return "the site's HTTPS certificate is not valid";
  }
  return error.message.split("\n")[0]?.slice(0, 200) ?? "the site could not be read";
}
