import type { Selectable } from "kysely";
import type { AnalysesTable } from "../../db/tables.ts";
import type { ServiceContext } from "../context.ts";
import { type CompiledProject, compileProject } from "../measurement/measure.ts";
import type { MeasuredProject } from "../measurement/types.ts";
import { measuredProject } from "../projects/measured.ts";
import { getProject } from "../projects/projects.ts";
import type { Project } from "../projects/types.ts";
import { analysisColumns } from "./columns.ts";

/** One answer to ask: a prompt of an engine, the nth time. */
export interface WorkItem {
  promptIndex: number;
  prompt: string;
  engine: string;
  sample: number;
}

/** What a run of an analysis needs: the brand as measured, and the answers still to ask. */
export interface AnalysisPlan {
  project: Project;
  measured: MeasuredProject;
  compiled: CompiledProject;
  engines: string[];
  prompts: string[];
  work: WorkItem[];
}

/**
 * Every prompt × engine × sample of the analysis not answered yet: a retried job picks up where a
 * crashed one stopped.
 */
export async function planAnalysis(ctx: ServiceContext, row: Selectable<AnalysesTable>): Promise<AnalysisPlan> {
  // An analysis accepted before its brand was deleted still finishes (and releases what it did not spend).
  const project = await getProject(ctx, row.project_id, { deleted: "included" });
  const measured = measuredProject(project);
  const engines = analysisColumns.engines.read(row.engines);
  const prompts = analysisColumns.prompts.read(row.prompts);
  const answered = await ctx.db
    .selectFrom("results")
    .select(["prompt_index", "engine", "sample"])
    .where("workspace_id", "=", row.workspace_id)
    .where("analysis_id", "=", row.id)
    .execute();
  const done = new Set(answered.map((r) => `${r.prompt_index}|${r.engine}|${r.sample}`));
  const work: WorkItem[] = [];
  prompts.forEach((prompt, promptIndex) => {
    for (const engine of engines) {
      for (let sample = 1; sample <= row.samples; sample++) {
        if (!done.has(`${promptIndex}|${engine}|${sample}`)) work.push({ promptIndex, prompt, engine, sample });
      }
    }
  });
  return { project, measured, compiled: compileProject(measured), engines, prompts, work };
}
