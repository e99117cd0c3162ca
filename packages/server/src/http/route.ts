import type { Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import type { Static, TSchema } from "typebox";
import type { SpecErrorCode } from "../errors/codes.ts";
import type { Scope } from "../services/api-keys/scopes.ts";
import type { ServiceContext } from "../services/context.ts";
import type { VersionedResource } from "../services/read-cache.ts";

type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** A non-JSON answer (CSV, HTML): sent as is, past the JSON serializer, with headers of its own. */
export class RawResponse {
  constructor(
    readonly contentType: string,
    /** A stream is sent as it is read (chunked). */
    readonly body: string | Buffer | Readable,
    readonly filename?: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** A JSON answer with a status other than the route's usual one (listed in `success.also`). */
export class WithStatus<T = unknown> {
  constructor(
    readonly status: SuccessStatus,
    readonly body: T,
    readonly headers: Record<string, string> = {},
  ) {}
}

export type SuccessStatus = 200 | 201 | 202;

/** Another success status a route can answer with, with the same body schema. */
interface OtherSuccess {
  status: SuccessStatus;
  description: string;
}

interface AlternativeFormat {
  contentType: string;
  description: string;
}

type In<S> = S extends TSchema ? Static<S> : undefined;

interface HandlerInput<P, Q, B> {
  params: In<P>;
  query: In<Q>;
  body: In<B>;
  ctx: ServiceContext;
  request: FastifyRequest;
  /** Who is asking: a client with an API key (`/v1`), or a member in the dashboard (`/app/api/…/v1`). */
  via: "api" | "dashboard";
  /** Aborted when the client goes away or the server starts draining: long waits end early. */
  signal: AbortSignal;
}

export interface RouteSpec<P, Q, B, R extends TSchema> {
  /** Stable; becomes the SDK method name. */
  operationId: string;
  method: HttpMethod;
  /** Under /v1, in Fastify syntax: `/projects/:id`. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  /** The scope that governs the endpoint; on GET endpoints `read` is accepted as well. */
  scope: Scope;
  /** Marks endpoints that are ours rather than the spec's. */
  extension?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out entirely (read as `{}`): every field of it is optional. */
  bodyOptional?: boolean;
  /**
   * The answer depends only on this resource's rows in the workspace and on the URL: it is kept
   * in the read cache, which checks the resource's version before serving it (never stale).
   */
  cachedAs?: VersionedResource;
  success: {
    status: SuccessStatus;
    description: string;
    schema: R;
    alternatives?: AlternativeFormat[];
    also?: OtherSuccess[];
  };
  /** Error codes this endpoint can return beyond those every authenticated endpoint can. */
  errors?: SpecErrorCode[];
  handler(input: HandlerInput<P, Q, B>): Promise<Static<R> | RawResponse | WithStatus<Static<R>>>;
}

/**
 * A route with its types erased, as the registry, the app and the OpenAPI builder see it. Every
 * typed route is one (`handler` is a method, so its input type may be narrower), hence no cast.
 */
export type Route = RouteSpec<TSchema | undefined, TSchema | undefined, TSchema | undefined, TSchema>;

/** Errors any authenticated endpoint can answer with, whatever it does. */
export const COMMON_ERRORS: SpecErrorCode[] = [
  "VALIDATION_ERROR",
  "INVALID_API_KEY",
  "PLAN_REQUIRED",
  "INSUFFICIENT_SCOPE",
  "RATE_LIMIT_EXCEEDED",
  "INTERNAL_ERROR",
];

/** Declares a route as data: the app, the OpenAPI document and the SDK types all read it. */
export function defineRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
>(spec: RouteSpec<P, Q, B, R>): Route {
  return spec;
}
