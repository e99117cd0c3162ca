import type { FastifyInstance } from "fastify";
import type { Deps } from "../../services/context.ts";
import { dashboardDoor } from "../doors/dashboard.ts";
import { memberDoor } from "../doors/member.ts";
import { MemberLimits } from "../doors/member-limits.ts";
import { assertSameOrigin, webHeaders } from "../doors/session.ts";
import { registerEmailLinks } from "../email-links.ts";
import type { Route, SessionRoute } from "../route.ts";
import { mountRoutes } from "../runner.ts";
import { accountRoutes } from "./routes/accounts.ts";
import { agencyRoutes } from "./routes/agencies.ts";
import { apiKeyRoutes } from "./routes/api-keys.ts";
import { brandingRoutes } from "./routes/branding.ts";
import { digestRoutes } from "./routes/digests.ts";
import { engineRoutes } from "./routes/engines.ts";
import { ingestTokenRoutes } from "./routes/ingest-tokens.ts";
import { invitationRoutes } from "./routes/invitations.ts";
import { memberRoutes } from "./routes/members.ts";
import { oauthRoutes } from "./routes/oauth.ts";
import { pitchRoutes } from "./routes/pitches.ts";
import { workspaceRoutes } from "./routes/workspaces.ts";

/** Where the dashboard's API lives; the SPA is served everywhere else but /v1, /docs and /healthz. */
const DASHBOARD_API = "/app/api";

/** The dashboard's own routes (docs/dashboard-api.md), in the order a reader meets them. */
export function dashboardRoutes(deps: Deps): SessionRoute[] {
  return [
    ...accountRoutes(deps),
    ...workspaceRoutes(),
    ...memberRoutes(),
    ...invitationRoutes(deps),
    ...apiKeyRoutes(),
    ...oauthRoutes(deps),
    ...engineRoutes(),
    ...brandingRoutes(),
    ...ingestTokenRoutes(),
    ...digestRoutes(),
    ...agencyRoutes(deps),
    ...pitchRoutes(deps),
  ];
}

/**
 * The library answers with session tokens in its bodies (sign-in, the session, the list of
 * sessions). The browser holds its session in an HttpOnly cookie and needs none of them, and no
 * script of the page should ever see one: they are taken out.
 */
function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "token")
      .map(([key, inner]) => [key, withoutTokens(inner)]),
  );
}

/** The authentication library's routes, `/app/api/auth/*`, fed the raw request. */
async function registerAuthRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  await app.register(async (scope) => {
    // Its handler parses bodies itself (JSON or form): hand it the bytes as they came.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 64 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    scope.route({
      method: ["GET", "POST"],
      url: `${DASHBOARD_API}/auth/*`,
      onRequest: async (request) => assertSameOrigin(request, deps.origins),
      handler: async (request, reply) => {
        const body = Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : undefined;
        const response = await deps.identity.handle(
          new Request(new URL(request.url, deps.publicUrl), {
            method: request.method,
            headers: webHeaders(request),
            ...(body === undefined ? {} : { body }),
          }),
        );
        reply.code(response.status);
        for (const [name, value] of response.headers) {
          if (name !== "set-cookie" && name !== "content-length") reply.header(name, value);
        }
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) reply.header("set-cookie", cookies);
        if (response.body === null) return reply.send(null);
        const bytes = Buffer.from(await response.arrayBuffer());
        if (!(response.headers.get("content-type") ?? "").includes("json")) return reply.send(bytes);
        return reply.send(JSON.stringify(withoutTokens(JSON.parse(bytes.toString("utf8")))));
      },
    });
  });
}

/**
 * The dashboard's API: its own routes and every `/v1` route again under
 * `/app/api/workspaces/:workspace/v1`, both through the one runner behind the session's doors
 * (one rate limit per member across them), then the authentication library's routes and the
 * links of e-mails.
 */
export async function registerDashboardApi(
  app: FastifyInstance,
  deps: Deps,
  v1Routes: Route[],
  draining: AbortSignal,
): Promise<void> {
  const limits = new MemberLimits(deps);
  mountRoutes(app, deps, dashboardRoutes(deps), dashboardDoor(deps, limits), draining);
  mountRoutes(app, deps, v1Routes, memberDoor(deps, limits), draining);
  await registerAuthRoutes(app, deps);
  registerEmailLinks(app, deps);
}
