import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../errors/api-error.ts";
import { scopesOf } from "../../services/accounts/roles.ts";
import { scopeAllows } from "../../services/api-keys/scopes.ts";
import type { Deps } from "../../services/context.ts";
import { AddressLimit, PUBLIC_ROUTE_LIMITS } from "../address-limits.ts";
import { registerEmailLinks } from "../email-links.ts";
import type { Route } from "../route.ts";
import { RawResponse, WithStatus } from "../route.ts";
import type { Caller, DashboardRoute } from "./route.ts";
import { accountRoutes } from "./routes/accounts.ts";
import { apiKeyRoutes } from "./routes/api-keys.ts";
import { digestRoutes } from "./routes/digests.ts";
import { invitationRoutes } from "./routes/invitations.ts";
import { memberRoutes } from "./routes/members.ts";
import { workspaceRoutes } from "./routes/workspaces.ts";
import { assertSameOrigin, requireMember, requireUser, webHeaders } from "./session.ts";

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Where the dashboard's API lives; the SPA is served everywhere else but /v1, /docs and /healthz. */
const DASHBOARD_API = "/app/api";

function workspaceParam(request: FastifyRequest): string {
  const value = (request.params as Record<string, unknown>).workspace;
  if (typeof value !== "string") throw new ApiError("NOT_FOUND", "No workspace named in the path.");
  return value;
}

/** The dashboard's own routes (docs/dashboard-api.md): session, role, and CSRF checks first. */
function registerDashboardRoutes(app: FastifyInstance, deps: Deps): void {
  const routes: DashboardRoute[] = [
    ...accountRoutes(deps),
    ...workspaceRoutes(),
    ...memberRoutes(),
    ...invitationRoutes(deps),
    ...apiKeyRoutes(),
    ...digestRoutes(),
  ];
  const anonymous = new AddressLimit(deps.counters, "public:address", PUBLIC_ROUTE_LIMITS.perAddressPerMinute, 60);
  const signUps = new AddressLimit(
    deps.counters,
    "signup:address",
    PUBLIC_ROUTE_LIMITS.signUpsPerAddressPer10Minutes,
    600,
  );
  const refuse = (seconds: number, what: string) => {
    throw new ApiError("RATE_LIMIT_EXCEEDED", `Too many ${what} from this address; try again in ${seconds} s.`, {
      retryAfter: seconds,
    });
  };
  for (const route of routes) {
    const isSignUp = route.method === "POST" && route.path === "/signup";
    app.route({
      method: route.method,
      url: `${DASHBOARD_API}${route.path}`,
      schema: {
        ...(route.params === undefined ? {} : { params: route.params }),
        ...(route.query === undefined ? {} : { querystring: route.query }),
        ...(route.body === undefined ? {} : { body: route.body }),
        response: { [route.success.status]: route.success.schema },
      },
      onRequest: async (request) => {
        assertSameOrigin(request, deps.origins);
        const access = route.access;
        if (access.kind === "public") {
          const user = await deps.identity.currentUser(webHeaders(request));
          // Counted per address when nobody is signed in (a signed-in member's pages are not limited here).
          const wait = user === null ? await anonymous.wait(request) : 0;
          if (wait > 0) refuse(wait, "requests");
          if (isSignUp) {
            const signUpWait = await signUps.wait(request);
            if (signUpWait > 0) refuse(signUpWait, "sign-ups");
          }
          request.caller = { user, workspace: null };
          return;
        }
        const user = await requireUser(deps, request);
        request.caller = {
          user,
          workspace:
            access.kind === "workspace"
              ? await requireMember(deps, user, workspaceParam(request), access.permission)
              : null,
        };
      },
      handler: async (request, reply) => {
        const caller = request.caller ?? { user: null, workspace: null };
        const result = await route.run(
          { params: request.params, query: request.query, body: request.body, request, reply },
          caller,
        );
        return reply.code(route.success.status).send(result);
      },
    });
  }
}

/**
 * Every `/v1` route again under `/app/api/workspaces/:workspace/v1`, for the dashboard: the same
 * definitions, schemas and services, with the session's member in place of an API key and the
 * member's role as scopes (viewer: read; member: …; admin and owner: all).
 */
function registerWorkspaceApi(app: FastifyInstance, deps: Deps, v1Routes: Route[]): void {
  for (const route of v1Routes) {
    app.route({
      method: route.method,
      url: `${DASHBOARD_API}/workspaces/:workspace/v1${route.path}`,
      schema: {
        ...(route.params === undefined ? {} : { params: route.params }),
        ...(route.query === undefined ? {} : { querystring: route.query }),
        ...(route.body === undefined ? {} : { body: route.body }),
        response: Object.fromEntries(
          [route.success.status, ...(route.success.also ?? []).map((other) => other.status)].map((status) => [
            status,
            route.success.schema,
          ]),
        ),
      },
      onRequest: async (request) => {
        assertSameOrigin(request, deps.origins);
        const user = await requireUser(deps, request);
        const workspace = await requireMember(deps, user, workspaceParam(request), "read");
        if (!scopeAllows(scopesOf(workspace.member.role), route.scope, route.method)) {
          throw new ApiError(
            "FORBIDDEN",
            `Your role in this workspace (${workspace.member.role}) does not allow this.`,
          );
        }
        request.caller = { user, workspace };
      },
      // The route's own schema knows its parameters, not the workspace the dashboard adds.
      preValidation: async (request) => {
        delete (request.params as Record<string, unknown>).workspace;
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const workspace = request.caller?.workspace;
        if (workspace === undefined || workspace === null) throw new Error("dashboard route without a member");
        const gone = new AbortController();
        const result = await route.handler({
          params: request.params,
          query: request.query,
          body: request.body,
          ctx: workspace.ctx,
          request,
          via: "dashboard",
          signal: gone.signal,
        });
        if (result instanceof WithStatus) return reply.code(result.status).send(result.body);
        reply.code(route.success.status);
        if (result instanceof RawResponse) {
          if (result.filename !== undefined)
            reply.header("content-disposition", `inline; filename="${result.filename}"`);
          reply.header("x-content-type-options", "nosniff");
          for (const [name, value] of Object.entries(result.headers)) reply.header(name, value);
          return reply.type(result.contentType).send(result.body);
        }
        return result;
      },
    });
  }
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

export async function registerDashboardApi(app: FastifyInstance, deps: Deps, v1Routes: Route[]): Promise<void> {
  app.decorateRequest("caller", null);
  registerDashboardRoutes(app, deps);
  registerWorkspaceApi(app, deps, v1Routes);
  await registerAuthRoutes(app, deps);
  registerEmailLinks(app, deps);
}
