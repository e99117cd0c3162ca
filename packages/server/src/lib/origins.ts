import { isIP } from "node:net";

/**
 * Which host names this server answers to and which page origins it trusts, decided from its
 * configuration alone: the public URL (`SIGHTLINE_PUBLIC_URL`) and the names the operator lists
 * (`SIGHTLINE_ALLOWED_HOSTS`). A request's `Host` and `Origin` headers are only ever compared
 * against them, never trusted as they come: a DNS-rebinding page (`rebind.example` resolving to
 * 127.0.0.1) sends its own name as `Host` and is refused before anything runs.
 *
 * Loopback names (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`, on any port) are accepted only
 * when the public URL is itself a loopback one: a server on a laptop is reached as localhost or
 * 127.0.0.1 interchangeably, one behind a public name never is.
 */
export class ServerOrigins {
  readonly publicOrigin: string;
  readonly #publicHostname: string;
  readonly #loopback: boolean;
  /** Listed names; a name listed with a port matches that port only. */
  readonly #allowed: { hostname: string; port: string | null }[];
  /** Agencies' custom hosts, from the database (services/agencies/hosts.ts keeps them current). */
  #custom: { hostname: string; port: string | null }[] = [];

  constructor(publicUrl: string, allowedHosts: readonly string[] = []) {
    const url = new URL(publicUrl);
    this.publicOrigin = url.origin;
    this.#publicHostname = url.hostname;
    this.#loopback = isLoopbackHostname(url.hostname);
    this.#allowed = allowedHosts.map((entry) => {
      const parsed = parseHost(entry);
      if (parsed === null) throw new Error(`'${entry}' is not a host name`);
      return { hostname: parsed.hostname, port: parsed.port === "" ? null : parsed.port };
    });
  }

  /** Whether a request whose `Host` (or trusted `X-Forwarded-Host`) is `host` is for this server. */
  allowsHost(host: string | undefined): boolean {
    if (host === undefined) return false;
    const parsed = parseHost(host);
    if (parsed === null) return false;
    if (parsed.hostname === this.#publicHostname) return true;
    if (this.#loopback && isLoopbackHostname(parsed.hostname)) return true;
    return [...this.#allowed, ...this.#custom].some(
      (allowed) => allowed.hostname === parsed.hostname && (allowed.port === null || allowed.port === parsed.port),
    );
  }

  /** Replaces the agencies' custom hosts this server answers to (names that do not parse are left out). */
  setCustomHosts(hosts: readonly string[]): void {
    this.#custom = hosts.flatMap((entry) => {
      const parsed = parseHost(entry);
      return parsed === null ? [] : [{ hostname: parsed.hostname, port: parsed.port === "" ? null : parsed.port }];
    });
  }

  /**
   * Whether a page of `origin` may change things here, for a request that arrived as `host`: the
   * public URL's origin, or the very origin the browser used to reach this server (its host and
   * port equal to the request's `Host`) when that host is one this server answers to. A page on
   * another port of the same machine is another origin, and is refused.
   */
  trustsOrigin(origin: string | undefined, host: string | undefined): boolean {
    if (origin === undefined || origin === "null") return false;
    let page: URL;
    try {
      page = new URL(origin);
    } catch {
      return false;
    }
    if (page.protocol !== "http:" && page.protocol !== "https:") return false;
    if (page.origin === this.publicOrigin) return true;
    if (host === undefined || !this.allowsHost(host)) return false;
    const reached = parseHost(host, page.protocol);
    return reached !== null && reached.host === page.host;
  }

  /** What to tell someone whose request named a host this server does not answer to. */
  static refusal(host: string | undefined): string {
    const named = host === undefined || host === "" ? "no host name" : `the host name '${host.slice(0, 100)}'`;
    return `This Sightline server does not answer to ${named}. Reach it at the address of SIGHTLINE_PUBLIC_URL, or list the name in SIGHTLINE_ALLOWED_HOSTS.`;
  }
}

/** A `Host` value as a URL sees it (lower-case, default port dropped), or null when it is not one. */
export function parseHost(value: string, protocol = "http:"): URL | null {
  const trimmed = value.trim().replace(/\.$/, "");
  // Only a host and a port: no credentials, path, query, fragment or spaces smuggled in.
  if (trimmed === "" || /[\s@/?#\\]/.test(trimmed)) return null;
  try {
    const url = new URL(`${protocol}//${trimmed}`);
    return url.hostname === "" ? null : url;
  } catch {
    return null;
  }
}

/** `localhost`, a name under `.localhost`, an address in 127.0.0.0/8, or `[::1]`. */
function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (name === "[::1]") return true;
  return isIP(name) === 4 && name.startsWith("127.");
}
