/** The spec's error codes and their HTTP statuses: the one table every error goes through. */
export const ERROR_STATUS = {
  INVALID_API_KEY: 401,
  INSUFFICIENT_SCOPE: 403,
  PLAN_REQUIRED: 403,
  RATE_LIMIT_EXCEEDED: 429,
  VALIDATION_ERROR: 400,
  NOT_FOUND: 404,
  BILLING_LIMIT_EXCEEDED: 403,
  ENGINE_FAILURE: 502,
  ENGINE_NOT_ALLOWED: 403,
  BILLING_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
} as const satisfies Record<string, number>;

/** The specification's codes: the only ones `/v1` answers with. */
export type SpecErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as SpecErrorCode[];

/**
 * The dashboard's own (`/app/api`, docs/dashboard-api.md): a session instead of a key, roles, and
 * membership rules the public API has no use for.
 */
const DASHBOARD_ERROR_STATUS = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CONFLICT: 409,
} as const satisfies Record<string, number>;

export type ErrorCode = SpecErrorCode | keyof typeof DASHBOARD_ERROR_STATUS;

export function statusOf(code: ErrorCode): number {
  return code in ERROR_STATUS
    ? ERROR_STATUS[code as SpecErrorCode]
    : DASHBOARD_ERROR_STATUS[code as keyof typeof DASHBOARD_ERROR_STATUS];
}

export const ERROR_MEANING: Record<SpecErrorCode, string> = {
  INVALID_API_KEY: "The API key is missing, invalid, revoked or expired.",
  INSUFFICIENT_SCOPE: "The API key lacks the scope this endpoint requires.",
  PLAN_REQUIRED: "The key's workspace is on a plan without API access (Growth and Agency have it).",
  RATE_LIMIT_EXCEEDED: "Too many requests in the current 60-second window.",
  VALIDATION_ERROR: "The request's parameters or body are invalid.",
  NOT_FOUND: "The requested resource or route does not exist.",
  BILLING_LIMIT_EXCEEDED: "The monthly credit allowance of the plan is reached.",
  ENGINE_FAILURE: "An AI engine failed; retry or use another engine.",
  ENGINE_NOT_ALLOWED: "The plan does not include the requested engine.",
  BILLING_UNAVAILABLE: "The plan or quota could not be read; transient, retry.",
  INTERNAL_ERROR: "Server error; retry.",
};
