import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "../db/availability.ts";
import { ApiError } from "../errors/api-error.ts";

/**
 * The answer to a request that failed because the database could not answer, or null for any
 * other failure: 503 BILLING_UNAVAILABLE for an authenticated request (its plan and quota cannot
 * be confirmed), else INTERNAL_ERROR; both with `Retry-After`, since the failure is transient and
 * the drivers reconnect by themselves.
 */
export function unavailableError(error: unknown, authenticated: boolean): ApiError | null {
  if (error instanceof ApiError || !isDatabaseUnavailable(error)) return null;
  return authenticated
    ? new ApiError(
        "BILLING_UNAVAILABLE",
        "The database is unreachable, so the workspace's plan and quota cannot be read; nothing was changed. Retry shortly.",
        { retryAfter: DATABASE_RETRY_AFTER_SECONDS, cause: error },
      )
    : new ApiError("INTERNAL_ERROR", "The database is unreachable; nothing was changed. Retry shortly.", {
        retryAfter: DATABASE_RETRY_AFTER_SECONDS,
        cause: error,
      });
}
