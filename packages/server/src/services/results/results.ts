import type { Selectable } from "kysely";
import type { Static } from "typebox";
import type { ResultsTable } from "../../db/tables.ts";
import { notFound, validationError } from "../../errors/api-error.ts";
import type { ServiceContext } from "../context.ts";
import { surfaceOf } from "../engines/catalog.ts";
import { microsToUsd } from "../engines/prices.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { citationCategory } from "../measurement/citations.ts";
import { fetchPageInWindows, type Page, type PageParams } from "../pagination.ts";
import { checkEnginesInPlan } from "../plans/engines.ts";
import { liveProjectIds } from "../projects/live.ts";
import { promptsTagged, tagFilter } from "../projects/prompt-tags.ts";
import { rowToProject } from "../projects/row.ts";
import { timeRange } from "../time-range.ts";
import { resultColumns } from "./columns.ts";
import type { ResultSchema } from "./schemas.ts";
import { resultWindows } from "./windows.ts";

/** One answer of one engine to one prompt, with what was measured in it. */
export type Result = Static<typeof ResultSchema>;

function rowToResult(row: Selectable<ResultsTable>): Result {
  const measure = resultColumns.measure.readNullable(row.measure);
  return {
    id: row.id,
    object: "result",
    analysis_id: row.analysis_id,
    project_id: row.project_id,
    engine: row.engine,
    surface: surfaceOf(row.engine),
    model: row.model,
    prompt: row.prompt,
    sample: row.sample,
    persona_id: row.persona_id,
    persona_version: row.persona_version,
    country: row.country,
    conversation_id: row.conversation_id,
    turn: row.conversation_id === null ? null : row.turn,
    status: row.status === "succeeded" ? "succeeded" : "failed",
    error: resultColumns.error.readNullable(row.error),
    text: row.text,
    citations: (measure?.citations ?? []).map((c) => ({ ...c, category: citationCategory(c) })),
    citation_source: measure?.citation_source ?? "none",
    brand: measure?.brand ?? null,
    competitors: measure?.competitors ?? [],
    searches: resultColumns.searches.read(row.searches),
    usage:
      row.cost_micros === null
        ? null
        : {
            input_tokens: row.input_tokens === null ? null : Number(row.input_tokens),
            output_tokens: row.output_tokens === null ? null : Number(row.output_tokens),
            search_calls: Number(row.search_calls ?? 0),
            cost: microsToUsd(Number(row.cost_micros)),
          },
    brand_cited: row.brand_cited,
    score: row.score,
    score_version: row.score_version,
    attempts: row.attempts,
    latency_ms: row.latency_ms,
    created_at: row.created_at,
  };
}

export interface ResultFilters extends PageParams {
  project_id?: string;
  analysis_id?: string;
  engine?: string;
  /** Inclusive lower bound (ISO 8601). */
  from?: string;
  /** Exclusive upper bound (ISO 8601). */
  to?: string;
  prompt?: string;
  /** The prompts of `project_id` carrying this tag now. */
  tag?: string;
  mentioned?: boolean;
  status?: "succeeded" | "failed";
  /** A persona's id, or `none`. */
  persona_id?: string;
  /** An ISO country, or `none`. */
  country?: string;
  conversation_id?: string;
}

/**
 * Stored answers, newest first, filtered by brand, analysis, engine and a half-open time range
 * [from, to). Naming an engine outside the plan is ENGINE_NOT_ALLOWED, like anywhere an engine is named.
 */
export async function listResults(ctx: ServiceContext, filters: ResultFilters): Promise<Page<Result>> {
  const known = filters.engine === undefined ? null : await workspaceEngines(ctx);
  if (filters.engine !== undefined && known !== null && !known.isKnown(filters.engine)) {
    throw validationError([{ field: "engine", issue: `unknown engine; engines are ${known.names().join(", ")}` }]);
  }
  const { from, to } = timeRange(filters);
  const tag = tagFilter(filters.tag);
  if (tag !== undefined && filters.project_id === undefined) {
    throw validationError([{ field: "tag", issue: "needs project_id: tags belong to a project's prompts" }]);
  }
  if (filters.engine !== undefined) checkEnginesInPlan(ctx, [filters.engine], "engine");
  let query = ctx.db
    .selectFrom("results")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id));
  if (filters.project_id !== undefined) query = query.where("project_id", "=", filters.project_id);
  if (filters.analysis_id !== undefined) query = query.where("analysis_id", "=", filters.analysis_id);
  if (filters.engine !== undefined) query = query.where("engine", "=", filters.engine);
  if (from !== undefined) query = query.where("created_at", ">=", from);
  if (to !== undefined) query = query.where("created_at", "<", to);
  if (filters.prompt !== undefined) query = query.where("prompt", "=", filters.prompt);
  if (tag !== undefined && filters.project_id !== undefined) {
    // Read at request time: the prompts that carry the tag now. Another workspace's project has none.
    const project = await ctx.db
      .selectFrom("projects")
      .selectAll()
      .where("workspace_id", "=", ctx.workspace.id)
      .where("id", "=", filters.project_id)
      .executeTakeFirst();
    const prompts = project === undefined ? [] : promptsTagged(rowToProject(project), tag);
    if (prompts.length === 0) return { data: [], has_more: false, next_cursor: null };
    query = query.where("prompt", "in", prompts);
  }
  if (filters.mentioned !== undefined) {
    query = query.where("mentioned", "=", filters.mentioned).where("status", "=", "succeeded");
  }
  if (filters.status !== undefined) query = query.where("status", "=", filters.status);
  if (filters.persona_id !== undefined)
    query =
      filters.persona_id === "none"
        ? query.where("persona_id", "is", null)
        : query.where("persona_id", "=", filters.persona_id);
  if (filters.country !== undefined)
    query =
      filters.country.toLowerCase() === "none"
        ? query.where("country", "is", null)
        : query.where("country", "=", filters.country.toUpperCase());
  if (filters.conversation_id !== undefined) query = query.where("conversation_id", "=", filters.conversation_id);
  return fetchPageInWindows(query, filters, rowToResult, (upTo) => resultWindows(ctx, ctx.db, { upTo, from, to }));
}

export async function getResult(ctx: ServiceContext, id: string): Promise<Result> {
  const row = await ctx.db
    .selectFrom("results")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id)
    .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id))
    .executeTakeFirst();
  if (row === undefined) throw notFound("result", id);
  return rowToResult(row);
}
