import type { Deps } from "../services/context.ts";
import { runDueSchedules } from "../services/monitoring/scheduler.ts";
import { generateWeeklyDigests } from "../services/reports/generate.ts";

/** One tick of a worker's clockwork: the monitoring runs that are due, then the weekly digests owed. */
export async function schedulerTick(deps: Deps): Promise<number> {
  const started = await runDueSchedules(deps);
  await generateWeeklyDigests(deps, deps.clock.now());
  return started;
}

/** Ticks in a worker process, never two ticks at once. */
export function startScheduler(deps: Deps, intervalMs: number): { stop(): void } {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await schedulerTick(deps);
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
