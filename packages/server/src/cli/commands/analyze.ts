import { parseArgs } from "node:util";
import type { Runtime } from "../../app/runtime.ts";
import { startWorker } from "../../app/worker.ts";
import type { Logger } from "../../lib/logger.ts";
import { count } from "../../lib/plural.ts";
import { createAnalysis } from "../../services/analyses/create.ts";
import { getAnalysis } from "../../services/analyses/read.ts";
import type { Analysis } from "../../services/analyses/types.ts";
import { projectWorkspace } from "../../services/projects/projects.ts";
import { workspaceContext } from "../../services/workspaces/workspaces.ts";
import { type Io, outputMode, required, table, UsageError } from "../io.ts";

export const ANALYZE_USAGE = `Usage:
  sightline analyze --project ID [--engines sandbox,chatgpt] [--samples N] [--timeout SECONDS] [--json]`;

const options = {
  project: { type: "string" },
  engines: { type: "string" },
  samples: { type: "string" },
  timeout: { type: "string" },
  json: { type: "boolean" },
} as const;

const percent = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(1)}%`);

function print(io: Io, analysis: Analysis): void {
  io.out(
    `Analysis ${analysis.id}: ${analysis.status}, ${analysis.progress.succeeded} of ${count(analysis.progress.total, "answer")}`,
  );
  for (const error of analysis.errors)
    io.out(`  ${error.engine}: ENGINE_FAILURE on ${count(error.answers, "answer")}: ${error.message}`);
  const summary = analysis.summary;
  if (summary === null) return;
  const row = (name: string, s: typeof summary.overall) => [
    name,
    String(s.answers),
    `${percent(s.visibility.value)} [${percent(s.visibility.ci_low)}–${percent(s.visibility.ci_high)}]`,
    percent(s.share_of_voice),
    s.average_position?.toFixed(2) ?? "–",
    s.sentiment_score?.toFixed(1) ?? "–",
    percent(s.citation_rate),
    s.visibility_score?.toFixed(1) ?? "–",
  ];
  io.out("");
  for (const line of table([
    ["", "ANSWERS", "VISIBILITY [95% CI]", "SHARE OF VOICE", "AVG POSITION", "SENTIMENT", "CITATION RATE", "SCORE"],
    row("all engines", summary.overall),
    ...Object.entries(summary.by_engine).map(([engine, s]) => row(engine, s)),
  ])) {
    io.out(line);
  }
}

/**
 * Queues an analysis as the operator and waits for it, running a worker in this process meanwhile
 * (so it finishes whether or not a server is running); prints the summary.
 */
export async function analyzeCommand(runtime: Runtime, args: string[], io: Io, logger: Logger): Promise<number> {
  const { values } = parseArgs({ args, options, strict: true, allowPositionals: false });
  const mode = outputMode(values);
  const projectId = required(values, "project");
  const samples = values.samples === undefined ? undefined : Number(values.samples);
  if (samples !== undefined && !Number.isInteger(samples)) throw new UsageError("--samples must be a whole number");
  const timeoutMs = (values.timeout === undefined ? 600 : Number(values.timeout)) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new UsageError("--timeout must be a number of seconds");

  const ctx = await workspaceContext(runtime.deps, await projectWorkspace(runtime.deps, projectId));
  const queued = await createAnalysis(
    ctx,
    {
      project_id: projectId,
      ...(values.engines === undefined
        ? {}
        : {
            engines: values.engines
              .split(",")
              .map((e) => e.trim())
              .filter(Boolean),
          }),
      ...(samples === undefined ? {} : { samples }),
    },
    { trigger: "cli" },
  );
  if (mode !== "json") io.out(`Queued ${queued.id} (${count(queued.progress.total, "answer")}); waiting…`);
  const worker = await startWorker(runtime, null, logger, { pollIntervalMs: 200, scheduler: false });
  try {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const analysis = await getAnalysis(ctx, queued.id);
      if (analysis.status === "completed" || analysis.status === "failed") {
        if (mode === "json") io.out(JSON.stringify(analysis, null, 2));
        else print(io, analysis);
        return analysis.status === "completed" ? 0 : 1;
      }
      if (performance.now() > deadline) {
        io.err(
          `error: analysis ${queued.id} is still ${analysis.status} after ${timeoutMs / 1000} s; it continues in the background`,
        );
        return 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await worker.stop(5_000);
  }
}
