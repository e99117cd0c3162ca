import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, validationError } from "../errors/api-error.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import { unavailableError } from "../services/availability.ts";
import { validationDetails } from "../services/validate.ts";

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    request_id: string;
    details: NonNullable<ApiError["details"]>;
  };
}

const FRAMEWORK_MESSAGES: Record<string, string> = {
  // The JSON parser refuses `"constructor": {"prototype": …}` too (Fastify's onConstructorPoisoning).
  FST_ERR_CTP_INVALID_JSON_BODY:
    'The request body is not valid JSON, or it holds a "constructor" key with a "prototype" key in it, which is refused.',
  FST_ERR_CTP_EMPTY_JSON_BODY: "The request body is empty although Content-Type says application/json.",
  FST_ERR_CTP_BODY_TOO_LARGE: "The request body is too large (the limit is 1 MiB).",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Send request bodies as JSON with 'Content-Type: application/json'.",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "The Content-Length header does not match the body.",
  FST_ERR_CTP_INVALID_TYPE: "The Content-Type header is malformed.",
  FST_ERR_BAD_URL: "The URL is malformed.",
  FST_ERR_MAX_PARAM_LENGTH: "A path parameter is too long.",
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

function errorBody(error: ApiError, requestId: string): ErrorBody {
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
    const unavailable = unavailableError(error, request.auth !== null);
    if (unavailable !== null) {
      logger.warn({ err: error, reqId: request.id }, "database unavailable");
      return sendError(request, reply, unavailable);
    }
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

/**
 * Errors of the connection itself, before any route runs: a request that did not arrive in time
 * (408), headers too large (431) or bytes that are not HTTP (400). The answer is written on the
 * socket in the API's error envelope, then the connection is closed.
 */
export function clientErrorHandler(logger: Logger) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const [status, message] =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "The request did not arrive in time; the connection is closed. Send the whole request at once."]
        : error.code === "HPE_HEADER_OVERFLOW"
          ? [431, "The request headers are too large."]
          : [400, "The request is not valid HTTP."];
    logger.debug({ code: error.code, status }, "client error");
    if (socket.writable) {
      const requestId = newId("req");
      const body = JSON.stringify(errorBody(new ApiError("VALIDATION_ERROR", message), requestId));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
