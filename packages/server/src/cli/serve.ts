import { createRuntime } from "../app/runtime.ts";
import { startServer } from "../app/server.ts";
import type { Config } from "../config/config.ts";
import { createLogger } from "../lib/logger.ts";

/**
 * Runs the long-lived process until SIGTERM or SIGINT, then drains: the HTTP server stops
 * accepting, in-flight requests finish, pending writes are flushed, the database is closed.
 * A second signal, or the shutdown timeout, exits at once.
 */
export async function runServe(config: Config, mode: "serve" | "all"): Promise<number> {
  const logger = createLogger(config.logLevel);
  const runtime = await createRuntime(config, logger);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(config, runtime, logger);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  logger.info(
    { mode, url: server.url, database: runtime.database.dialect, docs: `${server.url}/docs` },
    `Sightline listening on ${server.url}`,
  );

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = async (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting without waiting");
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, "shutting down: draining in-flight work");
      const timer = setTimeout(() => {
        logger.error({ timeoutMs: config.shutdownTimeoutMs }, "shutdown timed out; exiting");
        process.exit(1);
      }, config.shutdownTimeoutMs);
      timer.unref();
      try {
        await server.stop();
        await runtime.close();
        logger.info("stopped");
        resolve(0);
      } catch (error) {
        logger.error({ err: error }, "error while shutting down");
        resolve(1);
      }
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}
