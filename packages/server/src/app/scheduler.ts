import { type BiExportSchedule, exportAllBi } from "../services/bi/export.ts";
import type { Deps } from "../services/context.ts";
import { runDueSchedules } from "../services/monitoring/scheduler.ts";
import { queueDigestEmails } from "../services/notifications/digest-mail.ts";
import { generateWeeklyDigests } from "../services/reports/generate.ts";
import { dropResultMonths, ensureResultPartitions, moveResults } from "../services/retention/partitions.ts";
import { prune, type RetentionConfig } from "../services/retention/prune.ts";
import { queueAccessChecks } from "../services/traffic/access-recheck.ts";
import { syncDueGa4 } from "../services/traffic/ga4-due.ts";

/** Retention runs at most this often per worker (and twice at once deletes nothing more). */
const PRUNE_EVERY_MS = 3_600_000;

/**
 * One tick of a worker's clockwork: the monitoring runs that are due, then the weekly digests owed,
 * then the digest e-mails owed to the members who asked for them, then the brands' daily GA4 syncs,
 * then the daily re-checks of their access audits (queued as jobs: reading sites takes seconds).
 */
export async function schedulerTick(deps: Deps): Promise<number> {
  const started = await runDueSchedules(deps);
  await generateWeeklyDigests(deps, deps.clock.now());
  await queueDigestEmails(deps, deps.clock.now());
  await syncDueGa4(deps);
  await queueAccessChecks(deps);
  return started;
}

/**
 * Ticks in a worker process, never two ticks at once; retention once an hour, from the first tick;
 * the scheduled BI export, when configured, every `biExport.everyHours` from the first tick.
 */
export function startScheduler(
  deps: Deps,
  intervalMs: number,
  retention: RetentionConfig,
  biExport: BiExportSchedule | null = null,
): { stop(): void } {
  let running = false;
  let prunedAt = Number.NEGATIVE_INFINITY;
  let exportedAt = Number.NEGATIVE_INFINITY;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await schedulerTick(deps);
      // A populated `results` moving into monthly partitions: some batches on every tick until done.
      await moveResults(deps);
      const now = deps.clock.now();
      if (now.getTime() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = now.getTime();
        const pruned = await prune(deps, now, retention);
        if (Object.values(pruned).some((n) => n > 0)) deps.logger.info({ pruned }, "retention");
        const created = await ensureResultPartitions(deps);
        if (created.length > 0) deps.logger.info({ months: created }, "answer partitions created ahead");
        if (retention.answerMonths !== undefined && retention.answerMonths !== null) {
          const dropped = await dropResultMonths(deps, retention.answerMonths);
          if (dropped.length > 0) deps.logger.info({ months: dropped }, "answers of whole months dropped");
        }
      }
      if (biExport !== null && now.getTime() - exportedAt >= biExport.everyHours * 3_600_000) {
        exportedAt = now.getTime();
        const written = await exportAllBi(deps, biExport.dir);
        deps.logger.info({ workspaces: written, dir: biExport.dir }, "BI views exported");
      }
    } catch (error) {
      deps.logger.error({ err: error }, "scheduler tick failed");
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
