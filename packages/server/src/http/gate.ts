import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors/api-error.ts";
import { type Authenticated, authenticate, authorize } from "../services/auth/authenticate.ts";
import type { Deps } from "../services/context.ts";
import type { RateDecision } from "../services/rate-limits/rate-limits.ts";
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

export function setRateHeaders(reply: FastifyReply, decision: RateDecision): void {
  reply.header("x-ratelimit-limit", String(decision.limit));
  reply.header("x-ratelimit-remaining", String(decision.remaining));
  reply.header("x-ratelimit-reset", String(decision.resetAt));
}

function rateLimitExceeded(decision: RateDecision): ApiError {
  return new ApiError(
    "RATE_LIMIT_EXCEEDED",
    `Too many requests: the limit is ${decision.limit} per window; it resets in ${decision.retryAfter} s.`,
    { retryAfter: decision.retryAfter },
  );
}

/** Counts a request of a client with no usable key against its address, and refuses it if over. */
export async function limitAnonymous(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (deps.rateLimits === null) return;
  const decision = await deps.rateLimits.hit({ address: request.ip });
  request.rate = decision;
  setRateHeaders(reply, decision);
  if (!decision.allowed) throw rateLimitExceeded(decision);
}

/**
 * Everything under /v1 passes here before its body is parsed, in DESIGN.md §2's order: key valid →
 * plan has API access → rate limit → scope (validation and the rest follow in the route). A request
 * whose key is missing, wrong or of a plan without API access is counted against its address; every
 * other request against its workspace, whatever its outcome. The rate-limit headers are set before
 * anything can fail, so every response carries them.
 */
export function makeGate(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.header("x-request-id", request.id);
    if (!request.url.startsWith("/v1/")) return;
    const route = request.routeOptions.config.route;

    let auth: Authenticated | null = null;
    let refusal: ApiError | null = null;
    if (route !== undefined || request.headers.authorization !== undefined) {
      try {
        auth = await authenticate(deps, request.headers.authorization);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // Public and unknown routes do not need a key: a bad one only decides how they are counted.
        if (route !== undefined) refusal = error;
      }
    }

    request.auth = auth; // counted, and metered, even when refused below
    if (auth === null) {
      await limitAnonymous(deps, request, reply);
    } else if (deps.rateLimits !== null) {
      const decision = await deps.rateLimits.hit({
        workspaceId: auth.key.workspaceId,
        limit: auth.plan.requestsPerMinute ?? 0,
      });
      request.rate = decision;
      setRateHeaders(reply, decision);
      if (!decision.allowed) throw rateLimitExceeded(decision);
    }

    if (refusal !== null) throw refusal;
    if (route !== undefined && auth !== null) authorize(auth, route.scope, route.method);
  };
}
