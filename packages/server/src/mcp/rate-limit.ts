import { ApiError } from "../errors/api-error.ts";
import type { Authenticated } from "../services/auth/authenticate.ts";
import type { Deps } from "../services/context.ts";

/**
 * Counts a tool call against its workspace's rate limit as one more request, like an HTTP request
 * to /v1 (ADR 0008): where no HTTP request was counted for it (stdio), or where one request carried
 * several calls (a JSON-RPC batch). Over the limit it is RATE_LIMIT_EXCEEDED, with the wait.
 */
export async function countToolCall(deps: Deps, auth: Authenticated): Promise<void> {
  if (deps.rateLimits === null) return;
  const decision = await deps.rateLimits.hit({
    workspaceId: auth.key.workspaceId,
    limit: auth.plan.requestsPerMinute ?? 0,
  });
  if (decision.allowed) return;
  throw new ApiError(
    "RATE_LIMIT_EXCEEDED",
    `Too many requests: the limit is ${decision.limit} per window; it resets in ${decision.retryAfter} s.`,
    { retryAfter: decision.retryAfter },
  );
}
