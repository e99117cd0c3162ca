import type { FastifyRequest } from "fastify";
import type { Static, TSchema } from "typebox";
import type { ErrorCode } from "../errors/codes.ts";
import type { Scope } from "../services/auth/scopes.ts";
import type { ServiceContext } from "../services/context.ts";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** A non-JSON answer (CSV, HTML): sent as is, past the JSON serializer, with headers of its own. */
export class RawResponse {
  constructor(
    readonly contentType: string,
    readonly body: string,
    readonly filename?: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface AlternativeFormat {
  contentType: string;
  description: string;
}

type In<S> = S extends TSchema ? Static<S> : undefined;

export interface HandlerInput<P, Q, B> {
  params: In<P>;
  query: In<Q>;
  body: In<B>;
  ctx: ServiceContext;
  request: FastifyRequest;
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
  success: { status: 200 | 201 | 202; description: string; schema: R; alternatives?: AlternativeFormat[] };
  /** Error codes this endpoint can return beyond those every authenticated endpoint can. */
  errors?: ErrorCode[];
  handler(input: HandlerInput<P, Q, B>): Promise<Static<R> | RawResponse>;
}

/** A route with its types erased, as the registry, the app and the OpenAPI builder see it. */
export interface Route {
  operationId: string;
  method: HttpMethod;
  path: string;
  tag: string;
  summary: string;
  description: string;
  scope: Scope;
  extension?: boolean;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  success: { status: 200 | 201 | 202; description: string; schema: TSchema; alternatives?: AlternativeFormat[] };
  errors?: ErrorCode[];
  handler(input: {
    params: unknown;
    query: unknown;
    body: unknown;
    ctx: ServiceContext;
    request: FastifyRequest;
  }): Promise<unknown>;
}

/** Errors any authenticated endpoint can answer with, whatever it does. */
export const COMMON_ERRORS: ErrorCode[] = [
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
  return spec as unknown as Route;
}
