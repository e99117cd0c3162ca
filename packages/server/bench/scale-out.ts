import autocannon from "autocannon";
import type { DatabaseConfig } from "../src/config/database-url.ts";
import { type Child, freePort, SIGHTLINE_ENTRY, spawnServer } from "./processes.ts";
import { BenchReceiver, SECRET_KEY, seedPendingDeliveries } from "./webhooks.ts";

export interface ScaleOutRun {
  apis: number;
  workers: number;
  requestsPerSecond: number;
  deliveriesPerSecond: number;
}

/**
 * `apis` API processes and `workers` worker processes on one PostgreSQL database, rate limits in
 * Redis: the webhook drain of `pending` queued deliveries (first arrival to last), then
 * authenticated GET /v1/projects spread over the API processes (one autocannon per process,
 * the connections shared out) while the workers idle.
 */
export async function scaleOutRun(
  database: DatabaseConfig,
  databaseUrl: string,
  redisUrl: string,
  plansFile: string,
  shape: { apis: number; workers: number; pending: number; connections: number; durationSeconds: number },
): Promise<ScaleOutRun> {
  const receiver = new BenchReceiver();
  await receiver.start();
  const children: Child[] = [];
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SIGHTLINE_SECRET_KEY: SECRET_KEY,
    SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true",
    SIGHTLINE_PLANS: plansFile,
    LOG_LEVEL: "warn",
  };
  try {
    const key = await seedPendingDeliveries(database, receiver.url, shape.pending);
    const apis: Child[] = [];
    for (let i = 0; i < shape.apis; i++) {
      const port = await freePort();
      const api = await spawnServer(
        SIGHTLINE_ENTRY,
        ["serve"],
        { ...env, PORT: String(port) },
        {
          healthUrl: `http://127.0.0.1:${port}/healthz`,
        },
      );
      apis.push(api);
      children.push(api);
    }
    for (let i = 0; i < shape.workers; i++) {
      children.push(
        await spawnServer(
          SIGHTLINE_ENTRY,
          ["worker"],
          { ...env, LOG_LEVEL: "info" },
          {
            stdout: /Sightline worker (\S+) running/,
          },
        ),
      );
    }
    await receiver.waitFor(shape.pending, 300_000);
    const deliveriesPerSecond = (shape.pending - 1) / ((receiver.lastAt - receiver.firstAt) / 1000);

    const headers = { authorization: `Bearer ${key}` };
    const load = (seconds: number) =>
      Promise.all(
        apis.map((api) =>
          autocannon({
            url: `${api.url}/v1/projects`,
            headers,
            connections: Math.max(1, Math.floor(shape.connections / apis.length)),
            duration: seconds,
          }),
        ),
      );
    await load(3);
    const results = await load(shape.durationSeconds);
    const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0);
    if (failed > 0) throw new Error(`${failed} requests were not 2xx`);
    const requestsPerSecond = results.reduce((sum, r) => sum + r.requests.average, 0);
    return { apis: shape.apis, workers: shape.workers, requestsPerSecond, deliveriesPerSecond };
  } finally {
    for (const child of children) await child.stop();
    await receiver.stop();
  }
}
