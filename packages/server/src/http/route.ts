import type { Readable } from "node:stream";
import type { Static, TSchema } from "typebox";
import type { SpecErrorCode } from "../errors/codes.ts";
import type { AccountUser } from "../services/accounts/identity.ts";
import type { Membership } from "../services/accounts/members.ts";
import type { Permission } from "../services/accounts/roles.ts";
import type { Scope } from "../services/api-keys/scopes.ts";
import type { ServiceContext } from "../services/context.ts";
import type { RateDecision } from "../services/rate-limits/rate-limits.ts";
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

/** A JSON answer with a status other than the route's usual one (listed in `success.also`), or headers of its own. */
export class WithStatus<T = unknown> {
  constructor(
    readonly status: SuccessStatus,
    readonly body: T,
    readonly headers: Record<string, string | string[]> = {},
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

/** The entrance a request came through (http/runner.ts): an API key's (`/v1`, MCP) or a member's session. */
export type Via = "api" | "dashboard";

/** What every route is given, whichever door the request came through. */
interface CommonInput<P, Q, B> {
  params: In<P>;
  query: In<Q>;
  body: In<B>;
  /** The request's headers (lower-case names), for preferences such as `Prefer`; the door has authenticated it. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The client's address, as the server sees it (`TRUST_PROXY` decides whether a proxy's word counts). */
  address: string;
  /** The host the request was sent to, as the server sees it (`TRUST_PROXY`: a proxy's `X-Forwarded-Host`). */
  host: string;
  /** The rate-limit decision this request was counted under, when rate limits are on. */
  rate: RateDecision | null;
  via: Via;
  /** Aborted when the client goes away or the server starts draining: long waits end early. */
  signal: AbortSignal;
  /** The request's body as it arrives, unread, on a route that takes a raw body (`rawBody`); else null. */
  stream: Readable | null;
  /**
   * Told how far a long wait has got (an analysis's answers done of its total), on a door that can
   * pass it on while the request runs (MCP's progress notifications); null on the others.
   */
  progress: Progress | null;
}

/** How far long work has got: `done` of `total`, and a sentence for people. */
export type Progress = (done: number, total: number, message: string) => void;

/**
 * A body that is not JSON (access-log lines): handed to the route as a stream, unparsed and
 * unbuffered, whatever its size; the route reads it, and checks its type and length itself.
 */
interface RawBody {
  /** The media types it accepts, the first being the default; listed in the OpenAPI document. */
  contentTypes: readonly string[];
  description: string;
}

interface BaseSpec<P, Q, B, R extends TSchema> {
  /** Stable; becomes the SDK's and the web app's method name. */
  operationId: string;
  method: HttpMethod;
  /** Under the door's prefix, in Fastify syntax: `/projects/:id`. */
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out entirely (read as `{}`): every field of it is optional. */
  bodyOptional?: boolean;
  /** The body is not JSON: the route reads it as a stream (`stream`); `body` is then left out. */
  rawBody?: RawBody;
  success: {
    status: SuccessStatus;
    description?: string;
    schema: R;
    alternatives?: AlternativeFormat[];
    also?: OtherSuccess[];
  };
}

/** A route of API v1: reached with an API key (`/v1`), by a member (the dashboard's mount) and by MCP. */
export interface RouteSpec<P, Q, B, R extends TSchema> extends BaseSpec<P, Q, B, R> {
  tag: string;
  summary: string;
  description: string;
  /** The scope that governs the endpoint; on GET endpoints `read` is accepted as well. */
  scope: Scope;
  /**
   * On the member door, a permission the member's role must also have (`can(role, permission)`),
   * for the few endpoints a role's scopes are too broad for: a member's role maps to `projects`, yet
   * only owners and admins delete a brand. API keys are governed by their scope alone.
   */
  memberPermission?: Permission;
  /** Marks endpoints that are ours rather than the spec's. */
  extension?: boolean;
  /**
   * The answer depends only on this resource's rows in the workspace and on the URL: it is kept
   * in the read cache, which checks the resource's version before serving it (never stale).
   */
  cachedAs?: VersionedResource;
  /**
   * A read of analytics, a list or a report, and nothing else: served from the streaming replica
   * (DATABASE_REPLICA_URL) whenever it has caught up with the primary (db/replica.ts).
   */
  reads?: "replica";
  /** Error codes this endpoint can return beyond those every authenticated endpoint can. */
  errors?: SpecErrorCode[];
  /**
   * The API key's door also lets in the brand's ingest token (a log drain's, services/traffic/
   * ingest-tokens.ts) on this route, for the brand it was made for: nothing else opens with one.
   */
  ingestToken?: boolean;
  success: BaseSpec<P, Q, B, R>["success"] & { description: string };
  handler(
    input: CommonInput<P, Q, B> & { ctx: ServiceContext },
  ): Promise<Static<R> | RawResponse | WithStatus<Static<R>>>;
}

/** Who may call a dashboard-only route: anyone, any signed-in user, or a member of the workspace it names. */
export type Access = { kind: "public" } | { kind: "user" } | { kind: "member"; permission: Permission };

/** Who is calling a dashboard-only route, as its access establishes it. */
type CallerOf<A extends Access> = A extends { kind: "public" }
  ? { user: AccountUser | null }
  : A extends { kind: "user" }
    ? { user: AccountUser }
    : { user: AccountUser; ctx: ServiceContext; member: Membership };

/** A dashboard-only route (accounts, members, invitations, API keys): reached with a session only. */
export interface SessionRouteSpec<P, Q, B, R extends TSchema, A extends Access> extends BaseSpec<P, Q, B, R> {
  access: A;
  handler(input: CommonInput<P, Q, B> & CallerOf<A>): Promise<Static<R> | WithStatus<Static<R>>>;
}

/**
 * A route with its types erased, as the registry, the runner and the OpenAPI builder see it. Every
 * typed route is one (`handler` is a method, so its input type may be narrower), hence no cast.
 */
export type Route = RouteSpec<TSchema | undefined, TSchema | undefined, TSchema | undefined, TSchema>;
export type SessionRoute = SessionRouteSpec<
  TSchema | undefined,
  TSchema | undefined,
  TSchema | undefined,
  TSchema,
  Access
>;
/** Either kind, as the runner mounts them. */
export type AnyRoute = Route | SessionRoute;

export function isApiRoute(route: AnyRoute): route is Route {
  return "scope" in route;
}

/** Errors any authenticated endpoint can answer with, whatever it does. */
export const COMMON_ERRORS: SpecErrorCode[] = [
  "VALIDATION_ERROR",
  "INVALID_API_KEY",
  "PLAN_REQUIRED",
  "INSUFFICIENT_SCOPE",
  "RATE_LIMIT_EXCEEDED",
  "INTERNAL_ERROR",
];

/**
 * Declares a route as data, the one way there is: the runner mounts it behind its doors, and the
 * OpenAPI document, the SDK's and the web app's clients are generated from it. An API route names
 * its scope; a dashboard-only route its access.
 */
export function defineRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
>(spec: RouteSpec<P, Q, B, R>): Route;
export function defineRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
  A extends Access = Access,
>(spec: SessionRouteSpec<P, Q, B, R, A>): SessionRoute;
export function defineRoute(spec: AnyRoute): AnyRoute {
  return spec;
}
