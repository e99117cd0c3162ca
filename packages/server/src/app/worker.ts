import pg from "pg";
import type { Logger } from "../lib/logger.ts";
import { runAnalysisHandler } from "../services/analyses/run.ts";
import { RUN_ANALYSIS_JOB } from "../services/analyses/types.ts";
import { PG_JOBS_CHANNEL } from "../services/jobs/store.ts";
import type { JobHandler } from "../services/jobs/types.ts";
import { Worker, type WorkerOptions } from "../services/jobs/worker.ts";
import { startScheduler } from "../services/monitoring/scheduler.ts";
import { deliverWebhookHandler } from "../services/webhooks/deliver.ts";
import { DELIVER_JOB } from "../services/webhooks/fanout.ts";
import { HttpTransport, type WebhookTransport } from "../services/webhooks/transport.ts";
import type { Runtime } from "./runtime.ts";

export const WEBHOOK_TIMEOUT_MS = 15_000;

export interface RunningWorker {
  worker: Worker;
  stop(timeoutMs: number): Promise<void>;
}

/** Every job kind and what runs it. */
export function jobHandlers(runtime: Runtime, transport: WebhookTransport): Record<string, JobHandler> {
  return {
    [DELIVER_JOB]: deliverWebhookHandler(runtime.deps, transport),
    [RUN_ANALYSIS_JOB]: runAnalysisHandler(runtime.deps),
  };
}

export function webhookTransport(runtime: Runtime): WebhookTransport {
  return new HttpTransport({
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    allowPrivate: runtime.deps.webhookTargets.allowPrivate,
    resolver: runtime.deps.webhookTargets.resolver,
  });
}

/**
 * Listens for PostgreSQL NOTIFYs sent when any process enqueues a job, so that this worker wakes
 * at once instead of at its next poll. Reconnects after a lost connection.
 */
async function listenForJobs(url: string, wake: () => void, logger: Logger): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let closed = false;
  let failures = 0;
  const connect = async (): Promise<void> => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url });
    next.on("notification", wake);
    next.on("error", (error) => {
      logger.warn({ err: error }, "job notifications lost; polling until reconnected");
      next.end().catch(() => {});
      if (client === next) client = null;
      retry();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${PG_JOBS_CHANNEL}`);
    } catch (error) {
      next.end().catch(() => {});
      throw error;
    }
    client = next;
    failures = 0;
    wake(); // anything enqueued while we were not listening
  };
  // A failed connect reports only to its caller (no "error" event): keep trying, backing off to 30 s.
  const retry = () => {
    const delay = Math.min(30_000, 1_000 * 2 ** failures);
    failures++;
    setTimeout(() => void connect().catch(retry), delay).unref();
  };
  await connect();
  return async () => {
    closed = true;
    await client?.end().catch(() => {});
  };
}

/** How often a worker looks for monitoring slots that are due. */
const SCHEDULER_INTERVAL_MS = 15_000;

/** Starts this process's worker: claims jobs of every kind and runs them until stopped. */

export async function startWorker(
  runtime: Runtime,
  databaseUrl: string | null,
  logger: Logger,
  options: Partial<WorkerOptions> & { scheduler?: boolean } = {},
  transport: WebhookTransport = webhookTransport(runtime),
): Promise<RunningWorker> {
  const worker = new Worker(runtime.deps, jobHandlers(runtime, transport), options);
  const scheduler = options.scheduler === false ? null : startScheduler(runtime.deps, SCHEDULER_INTERVAL_MS);
  const unlisten =
    databaseUrl === null
      ? async () => {}
      : await listenForJobs(databaseUrl, () => runtime.deps.jobSignal.wake(), logger);
  worker.start();
  return {
    worker,
    async stop(timeoutMs) {
      scheduler?.stop();
      await unlisten();
      await worker.stop(timeoutMs);
    },
  };
}
