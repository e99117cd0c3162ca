import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import { ApiError } from "../errors/api-error.ts";
import { newId } from "../lib/ids.ts";
import type { Deps, ServiceContext } from "../services/context.ts";
import { billingPeriod } from "../services/usage/period.ts";
import { renderDocsPage } from "./docs/render.ts";
import { makeErrorHandler, sendError, toApiError } from "./errors.ts";
import { limitAnonymous, makeGate } from "./gate.ts";
import { buildOpenApiDocument } from "./openapi/build.ts";
import { RawResponse, type Route } from "./route.ts";
import { rejectUnstorableText } from "./text-guard.ts";
import { V1_ROUTES } from "./v1/routes.ts";
import { validatorCompiler } from "./validation.ts";

export interface HttpOptions {
  publicUrl: string;
  bodyLimitBytes: number;
  trustProxy?: boolean;
  logger: FastifyBaseLogger;
  routes?: Route[];
}

function contextFor(deps: Deps, request: FastifyRequest): ServiceContext {
  const auth = request.auth;
  if (auth === null) throw new ApiError("INVALID_API_KEY", "No API key provided.");
  return {
    ...deps,
    workspace: { id: auth.key.workspaceId, plan: auth.plan, billingAnchor: auth.key.billingAnchor },
    actor: { type: "api_key", id: auth.key.id },
    requestId: request.id,
  };
}

/** The HTTP surface: API v1 under /v1, its OpenAPI document and reference, health. */
export async function buildHttpApp(deps: Deps, options: HttpOptions): Promise<FastifyInstance> {
  const routes = options.routes ?? V1_ROUTES;
  const app = Fastify({
    loggerInstance: options.logger,
    // One access-log line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => newId("req"),
    bodyLimit: options.bodyLimitBytes,
    exposeHeadRoutes: false,
    forceCloseConnections: "idle",
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    trustProxy: options.trustProxy ?? false,
    frameworkErrors: (error, request, reply) => {
      reply.header("x-request-id", request.id);
      limitAnonymous(deps, request, reply).then(
        () => sendError(request, reply, toApiError(error)),
        (refusal: unknown) => sendError(request, reply, toApiError(refusal)),
      );
    },
  });
  app.decorateRequest("auth", null);
  app.decorateRequest("rate", null);
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(makeErrorHandler(deps.logger));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? request.url;
    sendError(
      request,
      reply,
      new ApiError("NOT_FOUND", `No endpoint ${request.method} ${path}. The API reference is at /docs.`),
    );
  });
  app.addHook("onRequest", makeGate(deps));
  app.addHook("preValidation", rejectUnstorableText);
  // While draining, answer in-flight requests with `Connection: close` so that keep-alive
  // clients let go at once and shutdown does not wait on their idle sockets.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });
  app.addHook("onResponse", async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = request.auth;
    if (auth !== null && deps.meter !== null) {
      const period = billingPeriod(auth.key.billingAnchor, deps.clock.now());
      deps.meter.record(
        auth.key.workspaceId,
        period.start,
        `${request.method} ${request.routeOptions.url ?? "unmatched"}`,
      );
    }
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        workspace: request.auth?.key.workspaceId,
      },
      "request",
    );
  });

  for (const route of routes) {
    app.route({
      method: route.method,
      url: `/v1${route.path}`,
      config: { route },
      schema: {
        ...(route.params === undefined ? {} : { params: route.params }),
        ...(route.query === undefined ? {} : { querystring: route.query }),
        ...(route.body === undefined ? {} : { body: route.body }),
        response: { [route.success.status]: route.success.schema },
      },
      handler: async (request, reply) => {
        const result = await route.handler({
          params: request.params,
          query: request.query,
          body: request.body,
          ctx: contextFor(deps, request),
          request,
        });
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

  const document = buildOpenApiDocument(routes, options.publicUrl);
  const openApi = JSON.stringify(document);
  const docsPage = renderDocsPage(document);
  app.get("/v1/openapi.json", async (_request, reply) => reply.type("application/json; charset=utf-8").send(openApi));
  app.get("/docs", async (_request, reply) => reply.type("text/html; charset=utf-8").send(docsPage));
  app.get("/", async (_request, reply) => reply.redirect("/docs"));
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
