import { createServer, type Server } from "node:http";
import pino from "pino";
import { createRuntime } from "../src/app/runtime.ts";
import type { DatabaseConfig } from "../src/config/database-url.ts";
import { createApiKey } from "../src/services/api-keys/api-keys.ts";
import { createProject } from "../src/services/projects/projects.ts";
import { createEndpoint } from "../src/services/webhooks/endpoints.ts";
import { createWorkspace, workspaceContext } from "../src/services/workspaces/workspaces.ts";
import { type Child, freePort, SIGHTLINE_ENTRY, spawnServer } from "./processes.ts";

interface WebhookBenchResult {
  name: string;
  value: string;
}

export interface WebhookBench {
  lines: WebhookBenchResult[];
  /** Deliveries per second while draining the queue, first arrival to last. */
  drainPerSecond: number;
  latencyP99: number;
}

export const SECRET_KEY = Buffer.alloc(32, 3).toString("base64");

/** Counts deliveries and when each arrived, against the event's own creation time. */
export class BenchReceiver {
  latencies: number[] = [];
  ids = new Set<string>();
  /** When the first and the latest delivery arrived (performance.now()). */
  firstAt = 0;
  lastAt = 0;
  #server: Server | undefined;
  #onCount: { count: number; resolve: () => void } | undefined;
  url = "";

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string; created_at: string };
        this.latencies.push(Date.now() - Date.parse(event.created_at));
        this.ids.add(event.id);
        this.lastAt = performance.now();
        if (this.firstAt === 0) this.firstAt = this.lastAt;
        res.writeHead(200).end();
        if (this.#onCount !== undefined && this.ids.size >= this.#onCount.count) this.#onCount.resolve();
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, "127.0.0.1", resolve));
    const address = this.#server.address();
    this.url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/bench`;
  }

  reset(): void {
    this.latencies = [];
    this.ids = new Set();
    this.firstAt = 0;
    this.lastAt = 0;
  }

  waitFor(count: number, timeoutMs: number): Promise<void> {
    if (this.ids.size >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.ids.size} of ${count} deliveries arrived`)), timeoutMs);
      this.#onCount = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export async function seedPendingDeliveries(database: DatabaseConfig, receiverUrl: string, pending: number) {
  const runtime = await createRuntime(
    { database, secretKeys: [Buffer.from(SECRET_KEY, "base64")], webhookAllowPrivate: true },
    pino({ level: "silent" }),
  );
  try {
    const workspace = await createWorkspace(runtime.deps, { name: "Webhook bench", plan: "agency" });
    const ctx = await workspaceContext(runtime.deps, workspace.id);
    await createEndpoint(ctx, { url: receiverUrl, events: ["project.created"] });
    for (let i = 0; i < pending; i++) {
      await createProject(ctx, { name: `Pending ${i}`, primary_domain: `pending${i}.example.com` });
    }
    return (await createApiKey(runtime.deps, { workspaceId: workspace.id, name: "bench", scopes: ["projects"] })).key;
  } finally {
    await runtime.close();
  }
}

/**
 * Webhook delivery: throughput of a worker process draining `pending` queued events, then the
 * latency from an event's commit (a POST /v1/projects) to its arrival at the receiver.
 */
export async function webhookBenchmarks(
  label: string,
  database: DatabaseConfig,
  databaseUrl: string,
  plansFile: string,
  options: { pending: number; latencySamples: number; separateWorker: boolean },
): Promise<WebhookBench> {
  const receiver = new BenchReceiver();
  await receiver.start();
  const results: WebhookBenchResult[] = [];
  const env = {
    DATABASE_URL: databaseUrl,
    SIGHTLINE_SECRET_KEY: SECRET_KEY,
    SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true",
    SIGHTLINE_PLANS: plansFile,
    LOG_LEVEL: "warn",
    SIGHTLINE_WORKER_CONCURRENCY: "16",
  };
  const children: Child[] = [];
  try {
    const key = await seedPendingDeliveries(database, receiver.url, options.pending);
    const port = await freePort();
    const health = { healthUrl: `http://127.0.0.1:${port}/healthz` };
    const started = performance.now();
    if (options.separateWorker) {
      // The API first, so that its start-up is over before the worker starts draining.
      children.push(await spawnServer(SIGHTLINE_ENTRY, ["serve"], { ...env, PORT: String(port) }, health));
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
    } else {
      children.push(await spawnServer(SIGHTLINE_ENTRY, ["all"], { ...env, PORT: String(port) }, health));
    }
    await receiver.waitFor(options.pending, 300_000);
    const seconds = (performance.now() - started) / 1000;
    // The rate is taken between the first and the last arrival: the worker's start-up is not
    // delivery (it is reported beside it).
    const draining = (receiver.lastAt - receiver.firstAt) / 1000;
    const drainPerSecond = (options.pending - 1) / draining;
    results.push({
      name: `${label}: ${options.pending.toLocaleString("en-US")} queued deliveries drained`,
      value: `${Math.round(drainPerSecond)} deliveries/s (${draining.toFixed(2)} s from the first to the last; ${seconds.toFixed(1)} s with the process's start)`,
    });

    receiver.reset();
    const url = `http://127.0.0.1:${port}/v1/projects`;
    for (let i = 0; i < options.latencySamples; i++) {
      const response = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `Live ${i}`, primary_domain: `live${i}.example.com` }),
      });
      if (response.status !== 201) throw new Error(`POST /v1/projects answered ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await receiver.waitFor(options.latencySamples, 30_000);
    const sorted = [...receiver.latencies].sort((a, b) => a - b);
    results.push({
      name: `${label}: event committed → delivered`,
      value: `p50 ${percentile(sorted, 50)} ms, p99 ${percentile(sorted, 99)} ms over ${sorted.length} events`,
    });
    return { lines: results, drainPerSecond, latencyP99: percentile(sorted, 99) };
  } finally {
    for (const child of children) await child.stop();
    await receiver.stop();
  }
}
