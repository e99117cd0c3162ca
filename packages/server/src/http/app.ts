import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import { ApiError } from "../errors/api-error.ts";
import { newId } from "../lib/ids.ts";
import { ServerOrigins } from "../lib/origins.ts";
import { reloadCustomHosts } from "../services/agencies/hosts.ts";
import type { Deps } from "../services/context.ts";
import { billingPeriod } from "../services/usage/period.ts";
import { admit, authenticateRequests, needsKey } from "./authenticate-request.ts";
import { registerDashboardApi } from "./dashboard/register.ts";
import { renderDocsPage } from "./docs/render.ts";
import { apiKeyDoor } from "./doors/api-key.ts";
import { clientErrorHandler, makeErrorHandler, sendError, toApiError } from "./errors.ts";
import { countRequest, endRequestSpan, registerMetricsRoute, requestTraceIds, traceRequest } from "./metrics.ts";
import { buildOpenApiDocument } from "./openapi/build.ts";
import type { Route } from "./route.ts";
import { mountRoutes } from "./runner.ts";
import { registerSharedReports } from "./shared-reports.ts";
import { rejectUnstorableText } from "./text-guard.ts";
import { V1_ROUTES } from "./v1/routes.ts";
import { lazySerializers, validatorCompiler } from "./validation.ts";
import { isWebPath, WebApp } from "./web.ts";

/** How often the agencies' custom hosts are read again (a host set elsewhere is answered within this). */
const CUSTOM_HOSTS_RELOAD_MS = 10_000;

export interface HttpOptions {
  publicUrl: string;
  bodyLimitBytes: number;
  trustProxy?: boolean;
  /** Headers and body must arrive within this (default 30 s); else 408 and the connection closes. */
  requestTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  maxConnections?: number;
  /** The dashboard's build; packages/web/dist by default. */
  webRoot?: string;
  logger: FastifyBaseLogger;
  routes?: Route[];
  /** SIGHTLINE_METRICS_TOKEN: `/metrics` on this port for that bearer token; null or absent: not here. */
  metricsToken?: string | null;
  /** Further entrances the process assembly adds (the MCP server at /mcp), before the app is ready. */
  mounts?: ((app: FastifyInstance, deps: Deps) => void)[];
}

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * The policy of a page that sets none of its own, such as the API reference (`/docs`): its own
 * styles inline, no script, nothing loaded from elsewhere, never framed.
 */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The HTTP surface: API v1 under /v1, its OpenAPI document and reference, health. */
export async function buildHttpApp(deps: Deps, options: HttpOptions): Promise<FastifyInstance> {
  const routes = options.routes ?? V1_ROUTES;
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app = Fastify({
    loggerInstance: options.logger,
    // One access-log line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => newId("req"),
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    bodyLimit: options.bodyLimitBytes,
    // A `"__proto__"` key is data here (a prompt may be called that, and `prompt_tags` is keyed by
    // prompts): JSON.parse makes it an own property, and every object keyed by outside text is
    // read through own keys only (lib/own-keys.ts). `constructor.prototype` stays refused.
    onProtoPoisoning: "ignore",
    exposeHeadRoutes: false,
    forceCloseConnections: "idle",
    // A client that sends its request slowly (a byte a second) holds a connection no longer than
    // this; Node checks every second and answers 408 through `clientErrorHandler`.
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 72_000,
    http: { headersTimeout: Math.min(requestTimeout, 10_000), connectionsCheckingInterval: 1_000 },
    clientErrorHandler: clientErrorHandler(deps.logger),
    return503OnClosing: false,
    // No router limit on parameters short of Node's header size: an over-long id is matched, then
    // authenticated and refused by its schema, in the check order of every other input.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16_384 },
    trustProxy: options.trustProxy ?? false,
    // A URL the router cannot take (malformed escapes) is still authenticated and counted first:
    // without a valid key the answer is 401, whatever else is wrong with the request.
    frameworkErrors: (error, request, reply) => {
      reply.header("x-request-id", request.id);
      admit(deps, request, reply, needsKey(request.url), undefined).then(
        () => sendError(request, reply, toApiError(error)),
        (refusal: unknown) => sendError(request, reply, toApiError(refusal)),
      );
    },
  });
  app.server.maxConnections = options.maxConnections ?? 4096;
  app.decorateRequest("auth", null);
  app.decorateRequest("rate", null);
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(makeErrorHandler(deps.logger));
  const web = new WebApp(options.webRoot);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? request.url;
    if ((request.method === "GET" || request.method === "HEAD") && isWebPath(path)) return web.send(request, reply);
    return sendError(
      request,
      reply,
      new ApiError("NOT_FOUND", `No endpoint ${request.method} ${path}. The API reference is at /docs.`),
    );
  });
  // Before anything else: a request for a host name this server is not (DNS rebinding) gets no
  // further, whatever it carries. Health checks are answered under any name (they reveal nothing,
  // and orchestrators address them by the container's own address).
  // Agencies' custom hosts are names it answers to as well: loaded now, and again every few
  // seconds for a host another process set (the CLI sets it in the database).
  await reloadCustomHosts(deps);
  const hostReload = setInterval(() => {
    reloadCustomHosts(deps).catch((error: unknown) => app.log.warn({ err: error }, "custom hosts not reloaded"));
  }, CUSTOM_HOSTS_RELOAD_MS);
  hostReload.unref();
  app.addHook("onClose", async () => clearInterval(hostReload));
  app.addHook("onRequest", traceRequest);
  app.addHook("onRequest", (request, reply, done) => {
    if (deps.origins.allowsHost(request.host) || request.url === "/healthz" || request.url === "/metrics")
      return done();
    sendError(
      request,
      reply,
      new ApiError("VALIDATION_ERROR", ServerOrigins.refusal(request.host), {
        details: [{ field: "Host", issue: "is not a host name this server answers to" }],
      }),
    );
  });
  app.addHook("onRequest", authenticateRequests(deps));
  app.addHook("preValidation", rejectUnstorableText);
  // While draining, answer in-flight requests with `Connection: close` so that keep-alive
  // clients let go at once and shutdown does not wait on their idle sockets.
  let closing = false;
  const draining = new AbortController();
  app.addHook("preClose", async () => {
    closing = true;
    draining.abort();
  });
  // The access log line is built only when it is written (LOG_LEVEL info or lower).
  const infoLogged = ["trace", "debug", "info"].includes(options.logger.level);
  // Callback hooks, not async ones: they run on every request and need not wait for anything.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    // No page of this server may be framed by another site (clickjacking): every HTML answer says
    // so, whichever route sent it, and has a policy even if its route set none.
    const type = reply.getHeader("content-type");
    if (typeof type === "string" && type.startsWith("text/html")) {
      const policy = reply.getHeader("content-security-policy");
      if (typeof policy !== "string") reply.header("content-security-policy", PAGE_POLICY);
      else if (!policy.includes("frame-ancestors"))
        reply.header("content-security-policy", `${policy}; frame-ancestors 'none'`);
      reply.header("x-frame-options", "DENY");
    }
    done(null, payload);
  });
  app.addHook("onResponse", (request: FastifyRequest, reply: FastifyReply, done) => {
    countRequest(request, reply);
    endRequestSpan(request, reply);
    const auth = request.auth;
    if (auth !== null && deps.meter !== null) {
      const period = billingPeriod(auth.key.billingAnchor, deps.clock.now());
      deps.meter.record(
        auth.key.workspaceId,
        period.start,
        `${request.method} ${request.routeOptions.url ?? "unmatched"}`,
      );
    }
    if (infoLogged)
      request.log.info(
        {
          method: request.method,
          route: request.routeOptions.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          workspace: request.auth?.key.workspaceId,
          ...requestTraceIds(request),
        },
        "request",
      );
    done();
  });

  mountRoutes(app, deps, routes, apiKeyDoor(deps), draining.signal);
  await registerDashboardApi(app, deps, routes, draining.signal);
  registerSharedReports(app, deps);
  for (const mount of options.mounts ?? []) mount(app, deps);

  const document = buildOpenApiDocument(routes, options.publicUrl, deps.engines.names());
  const openApi = JSON.stringify(document);
  const docsPage = renderDocsPage(document);
  app.get("/v1/openapi.json", async (_request, reply) => reply.type("application/json; charset=utf-8").send(openApi));
  app.get("/docs", async (_request, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", PAGE_POLICY)
      .header("x-content-type-options", "nosniff")
      .send(docsPage),
  );
  // Fastly's HTTPS logging asks the receiving host to agree to take its logs: any service may
  // push here, since every push still needs its brand's ingest token (docs/traffic.md).
  app.get("/.well-known/fastly/logging/challenge", async (_request, reply) => reply.type("text/plain").send("*\n"));
  if (options.metricsToken) registerMetricsRoute(app, deps, options.metricsToken);
  app.get("/healthz", async (_request, reply) => {
    try {
      await deps.db.selectFrom("workspaces").select("id").limit(1).execute();
      return { status: "ok" };
    } catch {
      return reply.code(503).send({ status: "unavailable", reason: "database" });
    }
  });

  await app.ready();
  return app;
}
