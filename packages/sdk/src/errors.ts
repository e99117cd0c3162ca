import type { ErrorDetail, ErrorResponse } from "./generated/schemas.ts";

export type ErrorCode = ErrorResponse["error"]["code"];

/**
 * An error answer from the API, with the spec's `code`. Quote `requestId` to support.
 *
 * @example
 * try {
 *   await sightline.projects.create({ name: "Acme", primary_domain: "acme.com", engines: ["claude"] });
 * } catch (error) {
 *   if (error instanceof SightlineError && error.code === "ENGINE_NOT_ALLOWED") {
 *     // the plan does not include Claude
 *   }
 * }
 */
export class SightlineError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly requestId: string | undefined;
  readonly details: ErrorDetail[];
  /** Seconds to wait before retrying, when the server said so. */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: ErrorResponse["error"], retryAfter?: number) {
    super(body.message);
    this.name = "SightlineError";
    this.status = status;
    this.code = body.code;
    this.requestId = body.request_id;
    this.details = body.details;
    this.retryAfter = retryAfter;
  }
}

/** The server could not be reached, or did not answer in time. */
export class SightlineConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SightlineConnectionError";
  }
}
