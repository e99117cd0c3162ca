import { listen } from "../db/notifications.ts";
import type { Logger } from "../lib/logger.ts";
import { runAnalysisHandler } from "../services/analyses/run.ts";
import { RUN_ANALYSIS_JOB } from "../services/analyses/types.ts";
import { REBUILD_ROLLUPS_JOB, rebuildRollupsHandler } from "../services/analytics/rebuild.ts";
import type { BiExportSchedule } from "../services/bi/export.ts";
import { settleExperiments } from "../services/experiments/samples.ts";
import { JOBS_CHANNEL } from "../services/jobs/store.ts";
import type { BatchJobHandler, JobHandler } from "../services/jobs/types.ts";
import { Worker, type WorkerOptions } from "../services/jobs/worker.ts";
import { closeMonitoringRun } from "../services/monitoring/runs.ts";
import { NOTIFY_JOB } from "../services/notifications/queue.ts";
import { sendNotificationHandler } from "../services/notifications/send.ts";
import { REMEASURE_JOB } from "../services/remeasure/remeasures.ts";
import { remeasureHandler } from "../services/remeasure/run.ts";
import { reportFinishedAnalysis } from "../services/reports/generate.ts";
import { DEFAULT_RETENTION, type RetentionConfig } from "../services/retention/prune.ts";
import { ACCESS_CHECK_JOB, checkAccessHandler } from "../services/traffic/access-recheck.ts";
import { deliverWebhooks } from "../services/webhooks/deliver.ts";
import { DELIVER_JOB } from "../services/webhooks/fanout.ts";
import { HttpTransport, type WebhookTransport } from "../services/webhooks/transport.ts";
import type { Runtime } from "./runtime.ts";
import { startScheduler } from "./scheduler.ts";

const WEBHOOK_TIMEOUT_MS = 15_000;

export interface RunningWorker {
  worker: Worker;
  stop(timeoutMs: number): Promise<void>;
}

/** Every job kind and what runs it. */
function jobHandlers(runtime: Runtime, transport: WebhookTransport): Record<string, JobHandler | BatchJobHandler> {
  return {
    // Batched: many deliveries share their reads, writes and connections.
    [DELIVER_JOB]: deliverWebhooks(runtime.deps, transport),
    // Alert channels and digests: e-mail, and Slack through the webhooks' transport and address policy.
    [NOTIFY_JOB]: sendNotificationHandler(runtime.deps, transport),
    // When an analysis finishes, in its final transaction: experiments whose answers are in get
    // their results (and fire their alerts), monitoring closes its run (and fires alerts), then
    // reports write the report, which names that run.
    [RUN_ANALYSIS_JOB]: runAnalysisHandler(runtime.deps, [
      settleExperiments,
      closeMonitoringRun,
      reportFinishedAnalysis,
    ]),
    [REBUILD_ROLLUPS_JOB]: rebuildRollupsHandler(runtime.deps),
    [REMEASURE_JOB]: remeasureHandler(runtime.deps),
    // The daily re-check of a brand's access audit: robots.txt and llms.txt of its domains.
    [ACCESS_CHECK_JOB]: checkAccessHandler(runtime.deps),
  };
}

export function webhookTransport(runtime: Runtime): WebhookTransport {
  return new HttpTransport({
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    allowPrivate: runtime.deps.webhookTargets.allowPrivate,
    resolver: runtime.deps.webhookTargets.resolver,
  });
}

/** How often a worker looks for monitoring slots that are due. */
const SCHEDULER_INTERVAL_MS = 15_000;

/** Starts this process's worker: claims jobs of every kind and runs them until stopped. */

export async function startWorker(
  runtime: Runtime,
  databaseUrl: string | null,
  logger: Logger,
  options: Partial<WorkerOptions> & {
    scheduler?: boolean;
    retention?: RetentionConfig;
    biExport?: BiExportSchedule | null;
    /** How often the scheduler ticks (15 s); tests shorten it. */
    schedulerIntervalMs?: number;
  } = {},
  transport: WebhookTransport = webhookTransport(runtime),
): Promise<RunningWorker> {
  const worker = new Worker(runtime.deps, jobHandlers(runtime, transport), options);
  const scheduler =
    options.scheduler === false
      ? null
      : startScheduler(
          runtime.deps,
          options.schedulerIntervalMs ?? SCHEDULER_INTERVAL_MS,
          options.retention ?? DEFAULT_RETENTION,
          options.biExport ?? null,
        );
  const unlisten =
    databaseUrl === null
      ? async () => {}
      : await listen(databaseUrl, JOBS_CHANNEL, () => runtime.deps.jobSignal.wake(), logger);
  worker.start();
  return {
    worker,
    async stop(timeoutMs) {
      scheduler?.stop();
      await unlisten();
      await worker.stop(timeoutMs);
      transport.close?.();
    },
  };
}
