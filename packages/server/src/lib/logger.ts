import { isSpanContextValid, trace } from "@opentelemetry/api";
import pino from "pino";
import type { Redactor } from "./redact.ts";

/** The subset of pino the services use, so that any structured logger fits. */
export interface Logger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
}

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/**
 * Structured JSON logs to stdout (fd 1) or, for CLI commands whose stdout is output, stderr (fd 2).
 * Every line passes the redactor on its way out, so that a secret in an error from outside (a
 * vendor echoing its key) never reaches the log.
 */
export function createLogger(level: LogLevel, fd: 1 | 2 = 1, redactor?: Redactor): pino.Logger {
  return pino(
    {
      level,
      base: undefined,
      // With tracing on, a line written inside a request or a job names its trace, so that the
      // line and the trace are found from each other.
      mixin: () => {
        const context = trace.getActiveSpan()?.spanContext();
        return context !== undefined && isSpanContextValid(context)
          ? { trace_id: context.traceId, span_id: context.spanId }
          : {};
      },
      ...(redactor === undefined ? {} : { hooks: { streamWrite: (line: string) => redactor.scrub(line) } }),
      // Belt and braces: secrets are never put into log objects, and if one ever is, it is censored.
      redact: {
        paths: [
          "req.headers.authorization",
          "headers.authorization",
          "authorization",
          "key",
          "secret",
          "*.key",
          "*.secret",
        ],
        censor: "[redacted]",
      },
    },
    pino.destination({ fd, sync: false }),
  );
}
