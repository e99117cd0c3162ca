import { createRuntime } from "../app/runtime.ts";
import { type RunningServer, startServer } from "../app/server.ts";
import { startTracing } from "../app/tracing.ts";
import { type RunningWorker, startWorker } from "../app/worker.ts";
import type { Config } from "../config/config.ts";
import { configuredSecrets } from "../config/secrets.ts";
import { type MetricsServer, startMetricsServer } from "../http/metrics.ts";
import { createLogger } from "../lib/logger.ts";
import { Redactor } from "../lib/redact.ts";
import { needsSetup } from "../services/accounts/signup.ts";

export type ProcessMode = "all" | "serve" | "worker";

/**
 * Runs a long-lived process until SIGTERM or SIGINT, then drains: the HTTP server stops accepting
 * and finishes in-flight requests, the worker stops claiming and finishes (or releases) its jobs,
 * buffered counters are written, the database is closed. A second signal, or the shutdown
 * timeout, exits at once.
 */
export async function runProcess(config: Config, mode: ProcessMode): Promise<number> {
  const logger = createLogger(config.logLevel, 1, new Redactor(configuredSecrets(config)));
  const tracing = startTracing(config.tracing, logger);
  const runtime = await createRuntime(config, logger);
  let server: RunningServer | null = null;
  let worker: RunningWorker | null = null;
  let metrics: MetricsServer | null = null;
  try {
    if (config.metrics.port !== null)
      metrics = await startMetricsServer(runtime.deps, config.metrics.host, config.metrics.port, logger);
    if (mode !== "worker") server = await startServer(config, runtime, logger);
    if (mode !== "serve") {
      worker = await startWorker(runtime, config.directDatabaseUrl, logger, {
        concurrency: config.worker.concurrency,
        leaseMs: config.worker.leaseSeconds * 1000,
        pollIntervalMs: config.worker.pollMs,
        retention: config.retention,
        biExport: config.biExport,
      });
    }
  } catch (error) {
    await server?.stop();
    await metrics?.close();
    await runtime.close();
    await tracing?.shutdown();
    throw error;
  }
  const where = {
    ...(server === null ? {} : { url: server.url, docs: `${server.url}/docs` }),
    ...(metrics === null ? {} : { metrics: metrics.url }),
  };
  logger.info(
    { mode, ...where, database: runtime.database.dialect, worker: worker?.worker.id ?? null },
    server === null ? `Sightline worker ${worker?.worker.id} running` : `Sightline listening on ${server.url}`,
  );
  // Until the first account exists, whoever can read this console can create it (and nobody else).
  if (server !== null && (await needsSetup(runtime.deps))) {
    logger.warn(
      { setup_code: runtime.deps.setupCode, url: config.http.publicUrl },
      `First run: open ${config.http.publicUrl} and create the first account with the setup code ${runtime.deps.setupCode} (also printed by \`npm run sightline -- setup-code\`)`,
    );
  }

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = async (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting without waiting");
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, "shutting down: draining in-flight work");
      const started = performance.now();
      const timer = setTimeout(() => {
        logger.error({ timeoutMs: config.shutdownTimeoutMs }, "shutdown timed out; exiting");
        process.exit(1);
      }, config.shutdownTimeoutMs);
      timer.unref();
      try {
        await server?.stop();
        // Leave a margin for releasing unfinished jobs and closing within the timeout.
        await worker?.stop(Math.max(0, config.shutdownTimeoutMs * 0.8 - (performance.now() - started)));
        await metrics?.close();
        await runtime.close();
        await tracing?.shutdown();
        logger.info("stopped");
        resolve(0);
        // Everything accepted is finished or handed back: a vendor request still open in a released
        // job must not hold the process until the timeout and turn a clean stop into exit 1.
        setImmediate(() => process.exit(0)).unref();
      } catch (error) {
        logger.error({ err: error }, "error while shutting down");
        resolve(1);
      }
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}
