import type { Selectable } from "kysely";
import type { Db } from "../../db/database.ts";
import type { AnalysesTable } from "../../db/tables.ts";
import { type CostTally, costView, tallyOf, usageSums } from "../usage/costs.ts";
import { analysisColumns } from "./columns.ts";
import type { Analysis, AnalysisStatus, AnalysisSummary, AnalysisTrigger } from "./types.ts";

export interface AnswerCounts {
  succeeded: number;
  failed: number;
  /** What the answered answers cost, per engine. */
  costs: Map<string, CostTally>;
  /** Conversations the analysis runs (issue 29). */
  conversations?: number;
}

export async function answerCounts(
  db: Db,
  workspaceId: string,
  analysisIds: string[],
): Promise<Map<string, AnswerCounts>> {
  const out = new Map<string, AnswerCounts>();
  if (analysisIds.length === 0) return out;
  const rows = await db
    .selectFrom("results")
    .select(["analysis_id", "status", "engine", ...usageSums])
    .where("workspace_id", "=", workspaceId)
    .where("analysis_id", "in", analysisIds)
    .groupBy(["analysis_id", "status", "engine"])
    .execute();
  for (const row of rows) {
    const counts = out.get(row.analysis_id) ?? { succeeded: 0, failed: 0, costs: new Map() };
    const tally = tallyOf(row);
    if (row.status === "succeeded") {
      counts.succeeded += tally.answers;
      counts.costs.set(row.engine, tally);
    } else counts.failed += tally.answers;
    out.set(row.analysis_id, counts);
  }
  const conversations = await db
    .selectFrom("conversations")
    .select(["analysis_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("workspace_id", "=", workspaceId)
    .where("analysis_id", "in", analysisIds)
    .groupBy("analysis_id")
    .execute();
  for (const row of conversations) {
    const counts: AnswerCounts = out.get(row.analysis_id) ?? { succeeded: 0, failed: 0, costs: new Map() };
    counts.conversations = Number(row.n);
    out.set(row.analysis_id, counts);
  }
  return out;
}

/** Progress is counted from the stored answers, never kept as a second copy of the truth. */
export function rowToAnalysis(
  row: Selectable<AnalysesTable>,
  counts: AnswerCounts = { succeeded: 0, failed: 0, costs: new Map() },
): Analysis {
  return {
    id: row.id,
    object: "analysis",
    project_id: row.project_id,
    status: row.status as AnalysisStatus,
    trigger: row.trigger as AnalysisTrigger,
    schedule_id: row.schedule_id,
    engines: analysisColumns.engines.read(row.engines),
    prompts: analysisColumns.prompts.read(row.prompts),
    samples: row.samples,
    batch: row.batch,
    country: row.country,
    countries: analysisColumns.countries.read(row.countries),
    personas: analysisColumns.personas.read(row.personas),
    conversations: counts.conversations ?? 0,
    language: row.language,
    progress: {
      total: row.total_answers,
      succeeded: counts.succeeded,
      failed: counts.failed,
      pending: Math.max(0, row.total_answers - counts.succeeded - counts.failed),
    },
    credits: { reserved: row.credits_reserved, released: row.credits_released },
    cost: costView(counts.costs),
    errors: analysisColumns.errors.read(row.errors),
    summary: withSurfaces(analysisColumns.summary.readNullable(row.summary)),
    score_version: row.score_version,
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
  };
}

/** A summary stored before the API-vs-web comparison existed had no pair to compare: an empty list. */
function withSurfaces(summary: AnalysisSummary | null): AnalysisSummary | null {
  return summary === null ? null : { ...summary, surfaces: summary.surfaces ?? [] };
}
