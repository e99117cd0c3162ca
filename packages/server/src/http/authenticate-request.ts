import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors/api-error.ts";
import { type Authenticated, authenticate, authorize, type Credentials } from "../services/auth/authenticate.ts";
import { unavailableError } from "../services/availability.ts";
import type { Deps } from "../services/context.ts";
import type { RateDecision } from "../services/rate-limits/rate-limits.ts";
import { applyRateLimit } from "./rate-limit.ts";
import type { Route } from "./route.ts";

declare module "fastify" {
  interface FastifyRequest {
    auth: Authenticated | null;
    rate: RateDecision | null;
  }
  interface FastifyContextConfig {
    route?: Route;
  }
}

/** Paths under /v1 that answer without a key. */
const PUBLIC_V1_PATHS = new Set(["/v1/openapi.json"]);

/** Whether a request to this URL must carry a valid key (every /v1 endpoint but the public ones). */
export function needsKey(url: string): boolean {
  const path = url.split("?")[0] ?? url;
  return path.startsWith("/v1/") && !PUBLIC_V1_PATHS.has(path);
}

/**
 * Key valid → plan has API access → rate limit → scope, in DESIGN.md §2's order, for a request
 * that needs a key (`required`); validation and the rest follow. A request whose key is missing,
 * wrong or of a plan without API access is counted against its address; every other request
 * against its workspace, whatever its outcome. The rate-limit headers are set before anything can
 * fail, so every response carries them.
 */
export async function admit(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  required: boolean,
  route: Route | undefined,
  accepted: Credentials = "keys",
): Promise<void> {
  let auth: Authenticated | null = null;
  let refusal: ApiError | null = null;
  if (required || request.headers.authorization !== undefined) {
    try {
      auth = await authenticate(deps, request.headers.authorization, accepted);
    } catch (error) {
      // The key and its workspace's plan are read together: when the database cannot answer,
      // the plan lookup failed.
      const unavailable = required ? unavailableError(error, true) : null;
      if (unavailable !== null) throw unavailable;
      if (!(error instanceof ApiError)) throw error;
      // Public and unknown routes do not need a key: a bad one only decides how they are counted.
      if (required) refusal = error;
    }
  }

  request.auth = auth; // counted, and metered, even when refused below
  await applyRateLimit(
    deps,
    request,
    reply,
    auth === null
      ? { address: request.ip }
      : { workspaceId: auth.key.workspaceId, limit: auth.plan.requestsPerMinute ?? 0 },
  );

  if (refusal !== null) throw refusal;
  if (route !== undefined && auth !== null) authorize(auth, route.scope, route.method);
}

/**
 * The `onRequest` hook of what under /v1 is not a route of the table (the API key's door admits
 * those, doors/api-key.ts): the public `openapi.json`, and paths no route answers, which are
 * counted like any request before they are `NOT_FOUND`.
 */
export function authenticateRequests(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.header("x-request-id", request.id);
    if (!request.url.startsWith("/v1/") || request.routeOptions.config.route !== undefined) return;
    await admit(deps, request, reply, false, undefined);
  };
}
