import { parseArgs } from "node:util";
import type { Runtime } from "../../app/runtime.ts";
import { startWorker } from "../../app/worker.ts";
import type { Logger } from "../../lib/logger.ts";
import { count } from "../../lib/plural.ts";
import { projectWorkspace } from "../../services/projects/projects.ts";
import { getRemeasure, startRemeasure } from "../../services/remeasure/remeasures.ts";
import type { Remeasure } from "../../services/remeasure/types.ts";
import { workspaceContext } from "../../services/workspaces/workspaces.ts";
import { type Io, outputMode, required, UsageError } from "../io.ts";

export const REMEASURE_USAGE = `Usage:
  sightline remeasure --project ID [--from DATE] [--to DATE] [--wait] [--timeout SECONDS] [--json]
  Measures the brand's stored answers again under the current measurement and the brand's settings.
  Without --wait the job is queued for the running worker; with it, this process works on it and prints progress.`;

const options = {
  project: { type: "string" },
  from: { type: "string" },
  to: { type: "string" },
  wait: { type: "boolean" },
  timeout: { type: "string" },
  json: { type: "boolean" },
} as const;

const progress = (r: Remeasure) =>
  `Re-measure ${r.id}: ${r.status}, ${r.done} of ${count(r.total, "answer")} (${r.changed} changed), score version ${r.score_version}`;

/** Queues a re-measure of a brand as the operator; with --wait, runs a worker here until it ends. */
export async function remeasureCommand(runtime: Runtime, args: string[], io: Io, logger: Logger): Promise<number> {
  const { values } = parseArgs({ args, options, strict: true, allowPositionals: false });
  const mode = outputMode(values);
  const projectId = required(values, "project");
  const timeoutMs = (values.timeout === undefined ? 3600 : Number(values.timeout)) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError("--timeout must be a number of seconds");

  const ctx = await workspaceContext(runtime.deps, await projectWorkspace(runtime.deps, projectId));
  const queued = await startRemeasure(ctx, projectId, {
    ...(values.from === undefined ? {} : { from: values.from }),
    ...(values.to === undefined ? {} : { to: values.to }),
  });
  if (values.wait !== true) {
    if (mode === "json") io.out(JSON.stringify(queued, null, 2));
    else io.out(`Queued ${queued.id} (${count(queued.total, "answer")}); a running worker takes it.`);
    return 0;
  }
  if (mode !== "json") io.out(`Queued ${queued.id} (${count(queued.total, "answer")}); working…`);
  const worker = await startWorker(runtime, null, logger, { pollIntervalMs: 200, scheduler: false });
  try {
    const deadline = performance.now() + timeoutMs;
    let shown = -1;
    for (;;) {
      const remeasure = await getRemeasure(ctx, projectId, queued.id);
      if (remeasure.status === "completed" || remeasure.status === "failed") {
        if (mode === "json") io.out(JSON.stringify(remeasure, null, 2));
        else io.out(progress(remeasure) + (remeasure.error === null ? "" : `: ${remeasure.error}`));
        return remeasure.status === "completed" ? 0 : 1;
      }
      if (mode !== "json" && remeasure.done !== shown) {
        shown = remeasure.done;
        io.out(progress(remeasure));
      }
      if (performance.now() > deadline) {
        io.err(
          `error: ${queued.id} is still ${remeasure.status} after ${timeoutMs / 1000} s; it continues in the background`,
        );
        return 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await worker.stop(5_000);
  }
}
