import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, validationError } from "../errors/api-error.ts";
import type { Logger } from "../lib/logger.ts";
import { validationDetails } from "./validation.ts";

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    request_id: string;
    details: NonNullable<ApiError["details"]>;
  };
}

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "The request body is not valid JSON.",
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty although Content-Type says application/json.",
  FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large (the limit is 1 MiB).",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Send request bodies as JSON with 'Content-Type: application/json'.",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "The Content-Length header does not match the body.",
  FST_ERR_CTP_INVALID_TYPE: "The Content-Type header is malformed.",
  FST_ERR_BAD_URL: "The URL is malformed.",
  FST_ERR_MAX_PARAM_LENGTH: "A path parameter is longer than 200 characters.",
};

/** Whatever was thrown, the one ApiError it stands for. Unknown errors are INTERNAL_ERROR. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as Partial<FastifyError> & { validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    return validationError(validationDetails(fastifyError.validation as never, fastifyError.validationContext));
  }
  const code = fastifyError.code ?? "";
  const known = FRAMEWORK_MESSAGES[code];
  if (known !== undefined) return new ApiError("VALIDATION_ERROR", known, { details: [{ issue: known }] });
  // JSON.parse failures and proto-poisoning refusals surface as 400s from the body parser.
  const status = fastifyError.statusCode ?? 500;
  if (status === 404) return new ApiError("NOT_FOUND", "Not found.");
  if (status >= 400 && status < 500) {
    const message = error instanceof SyntaxError ? "The request body is not valid JSON." : "The request is malformed.";
    return new ApiError("VALIDATION_ERROR", message, { details: [{ issue: message }] });
  }
  return new ApiError(
    "INTERNAL_ERROR",
    "Something went wrong on our side; retry, and quote the request id if it persists.",
    {
      cause: error,
    },
  );
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: { code: error.code, message: error.message, request_id: requestId, details: error.details ?? [] },
  };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.retryAfter !== undefined) reply.header("retry-after", String(Math.max(1, Math.ceil(error.retryAfter))));
  reply.header("x-request-id", request.id);
  return reply.code(error.status).type("application/json; charset=utf-8").send(errorBody(error, request.id));
}

export function makeErrorHandler(logger: Logger) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError.code === "INTERNAL_ERROR") {
      logger.error(
        { err: error, reqId: request.id, method: request.method, url: request.routeOptions.url },
        "request failed",
      );
    }
    return sendError(request, reply, apiError);
  };
}
