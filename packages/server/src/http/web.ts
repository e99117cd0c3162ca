import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The built dashboard (packages/web/dist), next to this package in the workspace: two levels up
 * from this file in the sources (src/http) and from the compiled server `npm start` runs
 * (dist/bin/sightline.mjs) alike.
 */
export const WEB_ROOT = join(import.meta.dirname, "../../../web/dist");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
  ".webmanifest": "application/manifest+json",
};

/**
 * The dashboard loads nothing from elsewhere; inline styles are Radix's positioning. The page's own
 * inline scripts (the theme chosen before the first paint, so that dark mode does not flash light)
 * are allowed by their hashes, and no other inline script.
 */
function contentSecurityPolicy(page: string | undefined): string {
  const hashes = [...(page ?? "").matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) =>
      `'sha256-${createHash("sha256")
        .update(match[1] ?? "")
        .digest("base64")}'`,
  );
  return `default-src 'self'; script-src 'self'${hashes.map((hash) => ` ${hash}`).join("")}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'`;
}

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
  /** Hashed file names (Vite's `assets/`) never change: cached for a year. */
  immutable: boolean;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** Where paths other than the API's go: a file of the build, or the app's page (SPA routing). */
export function isWebPath(path: string): boolean {
  // Any API version (/v1, or a client trying /v2), the dashboard's API, the reference, health, and
  // the well-known addresses machines read (an MCP client's OAuth discovery must see a 404, not a page).
  return !(
    /^\/v\d+(\/|$)/.test(path) ||
    path.startsWith("/app/api/") ||
    path.startsWith("/.well-known/") ||
    path.startsWith("/oauth/") ||
    path === "/docs" ||
    path === "/healthz"
  );
}

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Sightline</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;line-height:1.5">
<h1>The dashboard has not been built</h1>
<p><code>npm install</code> builds it; run <code>npm run build</code> to build it now, then reload.
The API is at <a href="/docs">/docs</a>.</p></body></html>`;

/**
 * Serves the dashboard's build from memory (it is a few hundred kilobytes): files by path, and the
 * app's page for any other path outside the API, where the client-side router takes over.
 */
export class WebApp {
  readonly #assets = new Map<string, Asset>();
  readonly built: boolean;
  #csp = contentSecurityPolicy(undefined);

  constructor(root: string = WEB_ROOT) {
    this.built = existsSync(join(root, "index.html"));
    if (!this.built) return;
    for (const file of files(root)) {
      const body = readFileSync(file);
      const path = `/${relative(root, file).split(sep).join("/")}`;
      this.#assets.set(path, {
        body,
        type: TYPES[extname(file)] ?? "application/octet-stream",
        etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
        immutable: path.startsWith("/assets/"),
      });
    }
    this.#csp = contentSecurityPolicy(this.#assets.get("/index.html")?.body.toString("utf8"));
  }

  send(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    let path: string;
    try {
      path = decodeURIComponent((request.url.split("?")[0] ?? "/").replace(/\/+$/, "") || "/");
    } catch {
      return reply.code(400).type("text/plain").send("Malformed URL");
    }
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "same-origin");
    if (!this.built) return reply.code(503).type("text/html; charset=utf-8").send(NOT_BUILT);
    const asset = this.#assets.get(path) ?? this.#assets.get("/index.html");
    if (asset === undefined) return reply.code(404).send();
    const isPage = asset.type.startsWith("text/html");
    // A missing file under assets/ is a 404, not the app's page: a stale tab must see the failure.
    if (!this.#assets.has(path) && path.startsWith("/assets/"))
      return reply.code(404).type("text/plain").send("Not found");
    if (isPage) reply.header("content-security-policy", this.#csp);
    reply.header("cache-control", asset.immutable ? "public, max-age=31536000, immutable" : "no-cache");
    reply.header("etag", asset.etag);
    if (request.headers["if-none-match"] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  }
}
