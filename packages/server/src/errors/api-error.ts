import { type ErrorCode, statusOf } from "./codes.ts";

/** One problem with a request: which field, and what is wrong with it. */
export interface ErrorDetail {
  field?: string;
  issue: string;
  [extra: string]: unknown;
}

export interface ApiErrorOptions {
  details?: ErrorDetail[];
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
  cause?: unknown;
}

/** The only error type a request can end in; its code is one of the spec's. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ApiError";
    this.code = code;
    this.status = statusOf(code);
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

export function validationError(details: ErrorDetail[], message?: string): ApiError {
  const first = details[0];
  const summary =
    message ??
    (first === undefined
      ? "The request is invalid."
      : first.field === undefined
        ? first.issue
        : `${first.field}: ${first.issue}`);
  return new ApiError("VALIDATION_ERROR", summary, { details });
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError("NOT_FOUND", `No ${what} with id '${id}' exists in this workspace.`);
}
