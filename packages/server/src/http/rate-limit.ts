import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors/api-error.ts";
import type { Deps } from "../services/context.ts";
import type { RateDecision, RateSubject } from "../services/rate-limits/rate-limits.ts";

/**
 * Where the rate limit is applied to a request (ADR 0008): the request is counted against its
 * workspace, or against its address when it has no usable key; the three headers are set on the
 * reply before anything else can fail, and an exhausted window is 429 with Retry-After.
 */

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

/** Counts the request against `subject` (nothing when rate limits are off) and refuses it if over. */
export async function applyRateLimit(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  subject: RateSubject,
): Promise<void> {
  if (deps.rateLimits === null) return;
  const decision = await deps.rateLimits.hit(subject);
  request.rate = decision;
  setRateHeaders(reply, decision);
  if (!decision.allowed) throw rateLimitExceeded(decision);
}
