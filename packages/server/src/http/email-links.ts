import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import Type from "typebox";
import { escapeHtml } from "../lib/html.ts";
import type { Deps } from "../services/context.ts";
import { brandName, unsubscribeDigest } from "../services/notifications/digest.ts";
import { dashboardLinkTarget, unsubscribeTarget } from "../services/notifications/links.ts";
import { AddressLimit, PUBLIC_ROUTE_LIMITS } from "./address-limits.ts";

/** Nothing cached, indexed or passed on in a Referer; forms may post only here. */
const PRIVATE = {
  "cache-control": "private, no-store",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex, nofollow",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
};

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1c2330}main{max-width:560px;margin:15vh auto;padding:0 24px}h1{font-size:22px}button{font:inherit;padding:8px 14px;border-radius:6px;border:0;background:#1d4ed8;color:#fff;cursor:pointer}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

const BROKEN = page(
  "This link is not valid",
  "<p>It was not sent by this Sightline server, or it was changed on the way. Open Sightline and find the page from there.</p>",
);

const Params = Type.Object({ token: Type.String({ maxLength: 2000 }) });

function html(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).headers(PRIVATE).type("text/html; charset=utf-8").send(body);
}

/**
 * The signed links of alert and digest e-mails (services/notifications/links.ts), none needing a
 * session: `GET /app/l/:token` redirects to the dashboard page it names; `/app/unsubscribe/:token`
 * shows a confirmation (GET, which mail scanners fetch, changes nothing) and ends the digest on
 * POST — the page's button, or a mail client's one-click unsubscribe (RFC 8058). A link that was
 * not signed here, or was altered, is a 404 page, whatever is wrong with it.
 */
export function registerEmailLinks(app: FastifyInstance, deps: Deps): void {
  const invalid = (_error: unknown, _request: unknown, reply: FastifyReply) => html(reply, 404, BROKEN);
  const limit = new AddressLimit(deps.counters, "email-link:address", PUBLIC_ROUTE_LIMITS.perAddressPerMinute, 60);
  // Every link's request is counted against its address first, a broken link's too.
  const limited = async (request: FastifyRequest, reply: FastifyReply) => {
    const wait = await limit.wait(request);
    if (wait === 0) return;
    reply.header("retry-after", String(wait));
    return html(reply, 429, page("Too many requests", `<p>Try again in ${wait} seconds.</p>`));
  };

  app.get(
    "/app/l/:token",
    { schema: { params: Params }, errorHandler: invalid, onRequest: limited },
    async (request, reply) => {
      const target = dashboardLinkTarget(deps, (request.params as { token: string }).token);
      if (target === null) return html(reply, 404, BROKEN);
      return reply.headers({ "cache-control": "no-store", "referrer-policy": "no-referrer" }).redirect(target, 302);
    },
  );

  app.get(
    "/app/unsubscribe/:token",
    { schema: { params: Params }, errorHandler: invalid, onRequest: limited },
    async (request, reply) => {
      const member = unsubscribeTarget(deps, (request.params as { token: string }).token);
      if (member === null) return html(reply, 404, BROKEN);
      const brand = (await brandName(deps, member)) ?? "this brand";
      return html(
        reply,
        200,
        page(
          "Unsubscribe from the weekly digest?",
          `<p>You will no longer get the weekly e-mail digest of <strong>${escapeHtml(brand)}</strong>. You can turn it on again on the brand's monitoring page.</p><form method="post"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
    },
  );

  app.register(async (scope) => {
    // The page's form and mail clients' one-click POST send form bodies; the token is all that counts.
    scope.addContentTypeParser(
      ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data"],
      { parseAs: "string", bodyLimit: 4_096 },
      (_request, _body, done) => done(null, null),
    );
    scope.post(
      "/app/unsubscribe/:token",
      { schema: { params: Params }, errorHandler: invalid, onRequest: limited },
      async (request, reply) => {
        const member = unsubscribeTarget(deps, (request.params as { token: string }).token);
        if (member === null) return html(reply, 404, BROKEN);
        const { brand } = await unsubscribeDigest(deps, member);
        return html(
          reply,
          200,
          page(
            "You are unsubscribed",
            `<p>You will no longer get the weekly e-mail digest of <strong>${escapeHtml(brand ?? "this brand")}</strong>.</p>`,
          ),
        );
      },
    );
  });
}
