import { type Attributes, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

/**
 * Spans through the OpenTelemetry API: no-ops unless the process started a tracer provider
 * (app/tracing.ts, when an OTLP endpoint is configured), so code traces unconditionally.
 */
export function tracer() {
  return trace.getTracer("sightline");
}

/** Runs `work` inside a new active span (its children nest under it), ended and marked on error. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

export { SpanKind, SpanStatusCode };
