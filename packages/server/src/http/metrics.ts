import { timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { context, isSpanContextValid, type Span, trace } from "@opentelemetry/api";
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import type { Logger } from "../lib/logger.ts";
import { httpDuration, httpRequests, METRICS_CONTENT_TYPE, metricsText } from "../lib/metrics.ts";
import { SpanKind, SpanStatusCode, tracer } from "../lib/tracing.ts";
import type { Deps } from "../services/context.ts";
import { refreshQueueMetrics } from "../services/jobs/store.ts";

/** The scrape: this process's counters, and the queue as the database holds it now. */
function scrape(deps: Deps): Promise<string> {
  return metricsText(() => refreshQueueMetrics(deps));
}

/** Counts an answered request by its route's template (never its path: ids would make endless series). */
export function countRequest(request: FastifyRequest, reply: FastifyReply): void {
  const route = request.routeOptions.url ?? "unmatched";
  const status = reply.statusCode;
  httpRequests.inc({ method: request.method, route, status: String(status) });
  httpDuration.observe(
    { method: request.method, route, status_class: `${Math.floor(status / 100)}xx` },
    reply.elapsedTime / 1000,
  );
}

const requestSpans = new WeakMap<FastifyRequest, Span>();

/**
 * Opens the request's span and runs the rest of the request inside it, so that what it does (an
 * engine test, a database wait) nests under it. A no-op span unless tracing is on.
 */
export function traceRequest(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const route = request.routeOptions.url ?? "unmatched";
  const span = tracer().startSpan(`${request.method} ${route}`, {
    kind: SpanKind.SERVER,
    attributes: { "http.request.method": request.method, "http.route": route, "sightline.request_id": request.id },
  });
  requestSpans.set(request, span);
  context.with(trace.setSpan(context.active(), span), done);
}

/** The request's trace and span ids for its access-log line, when tracing is on; else nothing. */
export function requestTraceIds(request: FastifyRequest): { trace_id?: string; span_id?: string } {
  const context = requestSpans.get(request)?.spanContext();
  return context !== undefined && isSpanContextValid(context)
    ? { trace_id: context.traceId, span_id: context.spanId }
    : {};
}

export function endRequestSpan(request: FastifyRequest, reply: FastifyReply): void {
  const span = requestSpans.get(request);
  if (span === undefined) return;
  span.setAttribute("http.response.status_code", reply.statusCode);
  const workspace = request.auth?.key.workspaceId;
  if (workspace !== undefined) span.setAttribute("sightline.workspace_id", workspace);
  if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /metrics` on the API's own port, for `Authorization: Bearer <SIGHTLINE_METRICS_TOKEN>` only:
 * anything else is 401 with a `WWW-Authenticate` challenge. Prometheus reaches it by address, so the
 * host check lets it through, as it does health checks.
 */
export function registerMetricsRoute(app: FastifyInstance, deps: Deps, token: string): void {
  app.get("/metrics", async (request, reply) => {
    const header = request.headers.authorization ?? "";
    const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : "";
    if (!sameToken(given, token)) {
      return reply
        .code(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .type("text/plain; charset=utf-8")
        .send("401: /metrics needs Authorization: Bearer <SIGHTLINE_METRICS_TOKEN>\n");
    }
    return reply.type(METRICS_CONTENT_TYPE).send(await scrape(deps));
  });
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `/metrics` on a port of its own (SIGHTLINE_METRICS_PORT), without a token: for an internal
 * interface that only the scraper reaches, and for worker processes, which have no API port.
 */
export async function startMetricsServer(
  deps: Deps,
  host: string,
  port: number,
  logger: Logger,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://metrics").pathname;
    if (req.method !== "GET" || path !== "/metrics") {
      res
        .writeHead(404, { "content-type": "text/plain; charset=utf-8" })
        .end("404: only GET /metrics is served here\n");
      return;
    }
    scrape(deps).then(
      (body) => res.writeHead(200, { "content-type": METRICS_CONTENT_TYPE }).end(body),
      (error: unknown) => {
        logger.error({ err: error }, "could not read the metrics");
        res.writeHead(503, { "content-type": "text/plain; charset=utf-8" }).end("503: the metrics could not be read\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const bound = typeof address === "object" && address !== null ? address.port : port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${bound}/metrics`;
  return {
    url,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
