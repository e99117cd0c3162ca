import { newId } from "../../lib/ids.ts";
import { fromJson, toJson } from "../../lib/json.ts";
import { type Deps, inTransaction } from "../context.ts";
import type { EngineQuery } from "../engines/types.ts";
import { recordEvent } from "../events/events.ts";
import type { ClaimedJob, JobHandler, JobOutcome } from "../jobs/types.ts";
import { compileProject, measureAnswer } from "../measurement/measure.ts";
import type { MeasuredProject } from "../measurement/types.ts";
import { finishRun } from "../monitoring/runs.ts";
import { getProject } from "../projects/projects.ts";
import { reportForAnalysis } from "../reports/generate.ts";
import { releaseCredits } from "../usage/credits.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";
import { summarizeResults } from "./summary.ts";
import type { EngineFailureSummary } from "./types.ts";
import { rowToAnalysis } from "./view.ts";

/** Answers asked at once by one analysis; each engine's own limit applies within it. */
const ANSWERS_IN_FLIGHT = 64;

interface WorkItem {
  promptIndex: number;
  prompt: string;
  engine: string;
  sample: number;
}

async function pool<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  });
  await Promise.all(lanes);
}

/**
 * The `analysis.run` job: asks every prompt × engine × sample not answered yet (a retried job picks
 * up where a crashed one stopped), measures and stores each answer as it comes, then, in one
 * transaction, writes the summary and final status, releases the credits of failed answers and
 * records `analysis.completed`. One engine failing leaves the others' answers intact; the analysis
 * fails only if every answer failed.
 */
export function runAnalysisHandler(deps: Deps): JobHandler {
  return async (job: ClaimedJob): Promise<JobOutcome> => {
    const analysisId = String(job.payload.analysis_id);
    const row = await deps.db.selectFrom("analyses").selectAll().where("id", "=", analysisId).executeTakeFirst();
    if (row === undefined) return { status: "dead", error: `analysis ${analysisId} is missing` };
    if (row.status === "completed" || row.status === "failed") return { status: "succeeded" };
    const ctx = await workspaceContext(deps, row.workspace_id, { type: "system" });
    const startedAt = row.started_at ?? ctx.clock.now().toISOString();
    await deps.db
      .updateTable("analyses")
      .set({ status: "running", started_at: startedAt, updated_at: ctx.clock.now().toISOString() })
      .where("workspace_id", "=", row.workspace_id)
      .where("id", "=", analysisId)
      .where("status", "in", ["queued", "running"])
      .execute();

    const project = await getProject(ctx, row.project_id);
    const measured: MeasuredProject = {
      brand: {
        name: project.name,
        aliases: project.aliases,
        domains: [project.primary_domain, ...project.other_domains],
      },
      competitors: project.competitors,
    };
    const compiled = compileProject(measured);
    const engines = fromJson<string[]>(row.engines, []);
    const prompts = fromJson<string[]>(row.prompts, []);

    const done = new Set(
      (
        await deps.db
          .selectFrom("results")
          .select(["prompt_index", "engine", "sample"])
          .where("workspace_id", "=", row.workspace_id)
          .where("analysis_id", "=", analysisId)
          .execute()
      ).map((r) => `${r.prompt_index}|${r.engine}|${r.sample}`),
    );
    const work: WorkItem[] = [];
    prompts.forEach((prompt, promptIndex) => {
      for (const engine of engines) {
        for (let sample = 1; sample <= row.samples; sample++) {
          if (!done.has(`${promptIndex}|${engine}|${sample}`)) work.push({ promptIndex, prompt, engine, sample });
        }
      }
    });

    await pool(work, ANSWERS_IN_FLIGHT, async (item) => {
      const query: EngineQuery = {
        prompt: item.prompt,
        country: row.country,
        language: row.language,
        sample: item.sample,
        seed: analysisId,
        simulation: measured,
      };
      const { outcome, attempts, latencyMs } = await deps.engines.ask(item.engine, query);
      const base = {
        id: newId("res"),
        workspace_id: row.workspace_id,
        project_id: row.project_id,
        analysis_id: analysisId,
        engine: item.engine,
        prompt: item.prompt,
        prompt_index: item.promptIndex,
        sample: item.sample,
        attempts,
        latency_ms: latencyMs,
        score_version: row.score_version,
        created_at: deps.clock.now().toISOString(),
      };
      const values = outcome.ok
        ? (() => {
            const measure = measureAnswer(compiled, outcome.answer);
            return {
              ...base,
              model: outcome.answer.model,
              status: "succeeded",
              error: null,
              text: outcome.answer.text,
              measure: toJson(measure),
              mentioned: measure.brand.mentioned ? 1 : 0,
              position: measure.brand.position,
              sentiment: measure.brand.sentiment,
              brand_cited: measure.brand_cited ? 1 : 0,
              citation_count: measure.citations.length,
              brand_citation_count: measure.citations.filter((c) => c.brand).length,
              score: measure.score,
            };
          })()
        : {
            ...base,
            model: null,
            status: "failed",
            error: toJson({ code: outcome.error.code, message: outcome.error.message }),
            text: null,
            measure: null,
            mentioned: 0,
            position: null,
            sentiment: null,
            brand_cited: 0,
            citation_count: 0,
            brand_citation_count: 0,
            score: null,
          };
      await deps.db
        .insertInto("results")
        .values(values)
        .onConflict((oc) => oc.columns(["analysis_id", "prompt_index", "engine", "sample"]).doNothing())
        .execute();
    });

    await inTransaction(ctx, async (tx) => {
      const results = await tx.db
        .selectFrom("results")
        .select(["engine", "prompt", "status", "measure", "mentioned", "position", "sentiment", "score", "error"])
        .where("workspace_id", "=", row.workspace_id)
        .where("analysis_id", "=", analysisId)
        .execute();
      const failures = new Map<string, EngineFailureSummary>();
      for (const result of results) {
        if (result.status !== "failed") continue;
        const entry = failures.get(result.engine);
        if (entry === undefined) {
          const error = fromJson<{ message: string }>(result.error, { message: "unknown failure" });
          failures.set(result.engine, {
            engine: result.engine,
            code: "ENGINE_FAILURE",
            message: error.message,
            answers: 1,
          });
        } else entry.answers++;
      }
      const succeeded = results.filter((r) => r.status === "succeeded").length;
      const now = tx.clock.now().toISOString();
      // The guarded status change comes first: a second attempt finishing the same analysis (a
      // lease that expired under a live handler) changes nothing and must not release credits again.
      const finished = await tx.db
        .updateTable("analyses")
        .set({ status: succeeded > 0 ? "completed" : "failed", completed_at: now, updated_at: now })
        .where("workspace_id", "=", row.workspace_id)
        .where("id", "=", analysisId)
        .where("status", "=", "running")
        .executeTakeFirst();
      if (finished.numUpdatedRows === 0n) return; // finished meanwhile by another attempt
      const released = await releaseCredits(tx, {
        charges: [...failures.values()].map((f) => ({ engine: f.engine, credits: f.answers })),
        reference: analysisId,
      });
      const summary = summarizeResults(
        results,
        project.competitors.map((c) => c.name),
        engines,
        prompts,
      );
      await tx.db
        .updateTable("analyses")
        .set({
          summary: toJson(summary),
          errors: toJson([...failures.values()]),
          credits_released: row.credits_released + released,
        })
        .where("workspace_id", "=", row.workspace_id)
        .where("id", "=", analysisId)
        .execute();
      const final = await tx.db
        .selectFrom("analyses")
        .selectAll()
        .where("workspace_id", "=", row.workspace_id)
        .where("id", "=", analysisId)
        .executeTakeFirstOrThrow();
      const counts = { succeeded, failed: results.length - succeeded };
      await recordEvent(tx, "analysis.completed", { object: rowToAnalysis(final, counts) });
      if (final.schedule_id !== null) await finishRun(tx, final, summary);
      if (final.status === "completed") await reportForAnalysis(tx, final);
    });
    return { status: "succeeded" };
  };
}
