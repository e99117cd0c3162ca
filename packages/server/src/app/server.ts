import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Config } from "../config/config.ts";
import { buildHttpApp } from "../http/app.ts";
import { registerMcpRoute } from "../mcp/http.ts";
import type { Runtime } from "./runtime.ts";

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Stops accepting and lets in-flight requests finish; the runtime is closed by whoever made it. */
  stop(): Promise<void>;
}

export async function startServer(config: Config, runtime: Runtime, logger: FastifyBaseLogger): Promise<RunningServer> {
  const app = await buildHttpApp(runtime.deps, {
    publicUrl: config.http.publicUrl,
    bodyLimitBytes: config.http.bodyLimitBytes,
    trustProxy: config.http.trustProxy,
    requestTimeoutMs: config.http.requestTimeoutMs,
    keepAliveTimeoutMs: config.http.keepAliveTimeoutMs,
    maxConnections: config.http.maxConnections,
    metricsToken: config.metrics.token,
    logger,
    mounts: [registerMcpRoute],
  });
  await app.listen({ host: config.http.host, port: config.http.port });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : config.http.port;
  const host = config.http.host.includes(":") ? `[${config.http.host}]` : config.http.host;
  const url = `http://${host}:${port}`;
  return {
    app,
    url,
    async stop() {
      await app.close();
    },
  };
}
