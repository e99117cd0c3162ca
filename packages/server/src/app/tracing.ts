import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { Config } from "../config/config.ts";
import type { Logger } from "../lib/logger.ts";

export interface Tracing {
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing when an OTLP endpoint is configured: spans of requests, jobs
 * (an analysis among them) and each vendor call, batched and sent over OTLP/HTTP (JSON). Without
 * an endpoint nothing is started and every span is a no-op.
 */
export function startTracing(config: Config["tracing"], logger: Logger): Tracing | null {
  if (config === null) return null;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": config.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: config.endpoint }), { scheduledDelayMillis: 1_000 }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  logger.info({ endpoint: config.endpoint, service: config.serviceName }, "sending traces over OTLP");
  return {
    async shutdown() {
      await provider.shutdown().catch((error: unknown) => logger.warn({ err: error }, "traces not flushed"));
      trace.disable();
      context.disable();
    },
  };
}
