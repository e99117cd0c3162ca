import type { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { TSchema } from "typebox";
import { contentDisposition } from "../lib/content-disposition.ts";
import type { Deps, ServiceContext } from "../services/context.ts";
import { type AnyRoute, isApiRoute, type Progress, RawResponse, type Via, WithStatus } from "./route.ts";

/**
 * Who a door admitted: what the route's handler is given besides the request's parts (a service
 * context, the signed-in user, the membership), and the workspace its answers are cached under.
 */
interface Admitted {
  caller: Record<string, unknown>;
  /** The workspace the request acts in, for the read cache; null outside one. */
  workspaceId: string | null;
}

/**
 * One entrance to a route table: where it is mounted and how a request is let in. Everything else
 * (validation, body rules, abort signals, the read cache, statuses and headers, errors) is the
 * runner's, the same on every door; rate limits are the door's `admit`, which sets their headers.
 */
export interface Door<R extends AnyRoute> {
  /** Under this prefix, e.g. `/v1` or `/app/api/workspaces/:workspace/v1`. */
  prefix: string;
  /** Path parameters the prefix adds (`workspace`), taken out before the route's own schema reads `params`. */
  prefixParams: readonly string[];
  via: Via;
  /** Authenticates, checks origin, limits and permission (in the door's order), in `onRequest`, before the body is read. */
  admit(request: FastifyRequest, reply: FastifyReply, route: R): Promise<Admitted>;
}

declare module "fastify" {
  interface FastifyRequest {
    admitted: Admitted | null;
  }
}

function responseSchemas(route: AnyRoute): Record<number, TSchema> {
  const statuses = [route.success.status, ...(route.success.also ?? []).map((other) => other.status)];
  return Object.fromEntries(statuses.map((status) => [status, route.success.schema]));
}

/** What a route's handler answered, as the reply: its status, headers and body, through its schema. */
function send(reply: FastifyReply, route: AnyRoute, result: unknown): unknown {
  if (result instanceof WithStatus) {
    for (const [name, value] of Object.entries(result.headers)) reply.header(name, value);
    return reply.code(result.status).send(result.body);
  }
  reply.code(route.success.status);
  if (result instanceof RawResponse) {
    if (result.filename !== undefined) reply.header("content-disposition", contentDisposition(result.filename));
    reply.header("x-content-type-options", "nosniff");
    for (const [name, value] of Object.entries(result.headers)) reply.header(name, value);
    return reply.type(result.contentType).send(result.body);
  }
  return result;
}

/** A route's input as a door hands it over, whatever the transport. */
export interface RouteCall {
  params: unknown;
  query: unknown;
  body: unknown;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  address: string;
  host: string;
  rate: RouteInputRate;
  via: Via;
  signal: AbortSignal;
  caller: Record<string, unknown>;
  stream: Readable | null;
  progress: Progress | null;
}

type RouteInputRate = Parameters<AnyRoute["handler"]>[0]["rate"];

/**
 * Runs a route's handler on an admitted call: what every door ends in (HTTP here, MCP's tool
 * calls in mcp/server.ts), so that a route behaves the same whichever way it was reached.
 */
export function callRoute(route: AnyRoute, call: RouteCall): Promise<unknown> {
  // The door built the caller this route's access asks for (a context, a user, a member).
  const handler = route.handler.bind(route) as (input: unknown) => Promise<unknown>;
  return handler({
    ...call.caller,
    params: call.params,
    query: call.query,
    body: call.body,
    headers: call.headers,
    address: call.address,
    host: call.host,
    rate: call.rate,
    via: call.via,
    stream: call.stream,
    progress: call.progress,
    // Read only by the handlers that wait: made then, not for every request.
    get signal() {
      return call.signal;
    },
  });
}

/**
 * The caller with its context reading from the replica, for a route that only reads (`reads`)
 * when one is configured and caught up; else the caller as the door made it.
 */
async function readerCaller(
  deps: Deps,
  route: AnyRoute,
  caller: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const ctx = caller.ctx as ServiceContext | undefined;
  if (deps.replica === null || !isApiRoute(route) || route.reads !== "replica" || ctx === undefined) return caller;
  return { ...caller, ctx: { ...ctx, db: await deps.replica.reader() } };
}

/**
 * Mounts `routes` behind `door`: the one route runner of the server (lint refuses a second). The
 * API key's door, the member's session door and the dashboard's own routes all come through here.
 */
export function mountRoutes<R extends AnyRoute>(
  app: FastifyInstance,
  deps: Deps,
  routes: readonly R[],
  door: Door<R>,
  draining: AbortSignal,
): void {
  if (!app.hasRequestDecorator("admitted")) app.decorateRequest("admitted", null);
  for (const route of routes) {
    if (route.rawBody === undefined) mountRoute(app, deps, route, door, draining);
    // A raw body is the route's to read: in a context of its own, every media type is handed
    // over as the unread stream, and the JSON routes keep their parsers and limits.
    else
      app.register(async (raw) => {
        raw.removeAllContentTypeParsers();
        raw.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
        mountRoute(raw, deps, route, door, draining);
      });
  }
}

function mountRoute<R extends AnyRoute>(
  app: FastifyInstance,
  deps: Deps,
  route: R,
  door: Door<R>,
  draining: AbortSignal,
): void {
  const raw = route.rawBody !== undefined;
  app.route({
    method: route.method,
    url: `${door.prefix}${route.path}`,
    config: isApiRoute(route) ? { route } : {},
    schema: {
      ...(route.params === undefined ? {} : { params: route.params }),
      ...(route.query === undefined ? {} : { querystring: route.query }),
      ...(route.body === undefined ? {} : { body: route.body }),
      response: responseSchemas(route),
    },
    onRequest: async (request, reply) => {
      request.admitted = await door.admit(request, reply, route);
    },
    preValidation: async (request) => {
      // The route's own schema knows its parameters, not the ones the door's prefix adds.
      const params = request.params as Record<string, unknown>;
      for (const name of door.prefixParams) delete params[name];
      if (route.bodyOptional === true && (request.body === undefined || request.body === null)) request.body = {};
    },
    handler: async (request, reply) => {
      const admitted = request.admitted;
      if (admitted === null) throw new Error(`${route.operationId}: ran without being admitted`);
      const run = async (): Promise<unknown> => {
        // Made on first use only: most handlers never wait, and a signal per request is not free.
        let gone: AbortController | null = null;
        const abort = () => gone?.abort();
        try {
          return await callRoute(route, {
            params: request.params,
            query: request.query,
            body: raw ? undefined : request.body,
            stream: raw ? ((request.body as Readable | undefined) ?? null) : null,
            progress: null,
            headers: request.headers,
            address: request.ip,
            host: request.host,
            rate: request.rate,
            via: door.via,
            caller: await readerCaller(deps, route, admitted.caller),
            get signal() {
              if (gone === null) {
                gone = new AbortController();
                reply.raw.once("close", abort); // before the answer: the client went away
              }
              return AbortSignal.any([gone.signal, draining]);
            },
          });
        } finally {
          if (gone !== null) reply.raw.off("close", abort);
        }
      };
      const cachedAs = isApiRoute(route) ? route.cachedAs : undefined;
      if (cachedAs === undefined || admitted.workspaceId === null) return send(reply, route, await run());
      // The answer as the route's serializer writes it, kept while the resource is unchanged; the
      // same entry whichever door asked (the key is the route and its input, not the URL).
      reply.code(route.success.status);
      const query = request.url.split("?")[1] ?? "";
      const body = await deps.readCache.read(
        deps.db,
        admitted.workspaceId,
        cachedAs,
        `${route.operationId} ${JSON.stringify(request.params)} ${query}`,
        async () => {
          const result = await run();
          if (result instanceof WithStatus || result instanceof RawResponse)
            throw new Error(`${route.operationId}: a cached route answers plain JSON`);
          const serialized = reply.serialize(result);
          return typeof serialized === "string" ? serialized : Buffer.from(serialized as ArrayBuffer).toString("utf8");
        },
      );
      return reply.type("application/json; charset=utf-8").send(body);
    },
  });
}
