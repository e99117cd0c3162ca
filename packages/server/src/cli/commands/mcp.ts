import { parseArgs } from "node:util";
import { createRuntime } from "../../app/runtime.ts";
import { startWorker } from "../../app/worker.ts";
import type { Config } from "../../config/config.ts";
import type { Logger } from "../../lib/logger.ts";
import { serveMcpOverStdio } from "../../mcp/stdio.ts";
import { authenticate } from "../../services/auth/authenticate.ts";
import { type Io, UsageError } from "../io.ts";

export const MCP_USAGE = `Usage:
  sightline mcp [--no-worker]
Serves the MCP tools over stdio (JSON-RPC on stdin and stdout) until stdin closes, acting with the API key
in SIGHTLINE_API_KEY (never an argument: process lists show those) against DATABASE_URL. Logs go to stderr.
A worker runs in the process so that run_analysis finishes with nothing else running; --no-worker leaves
analyses to the deployment's workers.`;

const options = { "no-worker": { type: "boolean" } } as const;

/** Runs the MCP server on this process's stdin and stdout; resolves to the exit code once stdin closes. */
export async function mcpCommand(config: Config, args: string[], io: Io, logger: Logger): Promise<number> {
  const { values } = parseArgs({ args, options, strict: true, allowPositionals: false });
  const apiKey = io.env.SIGHTLINE_API_KEY?.trim() ?? "";
  if (apiKey === "") {
    throw new UsageError("set SIGHTLINE_API_KEY to the API key the MCP server acts with (not as an argument)");
  }
  const runtime = await createRuntime(config, logger);
  try {
    // A bad key fails here, with the API's message, before a worker starts.
    await authenticate(runtime.deps, `Bearer ${apiKey}`);
    const worker =
      values["no-worker"] === true
        ? null
        : await startWorker(runtime, config.directDatabaseUrl, logger, {
            concurrency: config.worker.concurrency,
            leaseMs: config.worker.leaseSeconds * 1000,
            pollIntervalMs: config.worker.pollMs,
            scheduler: false,
          });
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    try {
      await serveMcpOverStdio(runtime.deps, apiKey, {
        input: process.stdin,
        output: process.stdout,
        signal: stop.signal,
      });
    } finally {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      await worker?.stop(Math.max(0, config.shutdownTimeoutMs * 0.8));
    }
  } finally {
    await runtime.close();
  }
  return 0;
}
