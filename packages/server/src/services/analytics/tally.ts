import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { Tables } from "../../db/tables.ts";
import { validationError } from "../../errors/api-error.ts";
import type { ServiceContext } from "../context.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { checkEnginesInPlan } from "../plans/engines.ts";
import { promptsTagged, tagFilter } from "../projects/prompt-tags.ts";
import type { Project } from "../projects/types.ts";
import { add, COUNT_NAMES, type Counts, type Slice, slice, zero } from "./figures.ts";
import { type Period, type Span, spansOf } from "./period.ts";
import { promptKey } from "./rollups.ts";

export interface Filters {
  engine?: string;
  prompt?: string;
  /** Only the answers to the prompts carrying this tag now (`prompt_tags`). */
  tag?: string;
}

/** What rollups are read for: an engine, one prompt, and the prompts of a tag (maybe none). */
export interface RollupScope {
  engine?: string;
  prompt?: string;
  prompts?: readonly string[];
}

/** One summed rollup row, by whichever of day, engine, prompt and subject it was grouped by. */
export interface RollupSum extends Counts {
  day: string;
  engine: string;
  prompt: string;
  subject: string;
}

/**
 * A tag must be well formed (an unknown one just keeps no answer); an engine named in a filter must
 * exist and be in the plan, as anywhere an engine is named.
 */
export async function checkFilters(ctx: ServiceContext, filters: Filters): Promise<void> {
  tagFilter(filters.tag);
  if (filters.engine === undefined) return;
  const known = await workspaceEngines(ctx);
  if (!known.isKnown(filters.engine)) {
    throw validationError([{ field: "engine", issue: `unknown engine; engines are ${known.names().join(", ")}` }]);
  }
  checkEnginesInPlan(ctx, [filters.engine], "engine");
}

/** The filters as the rollups read them: a tag becomes the project's prompts carrying it now. */
export function scopeOf(project: Project, filters: Filters): RollupScope {
  const tag = tagFilter(filters.tag);
  return {
    ...(filters.engine === undefined ? {} : { engine: filters.engine }),
    ...(filters.prompt === undefined ? {} : { prompt: filters.prompt }),
    ...(tag === undefined ? {} : { prompts: promptsTagged(project, tag) }),
  };
}

type Dimension = "day" | "engine" | "prompt" | "subject";

const toSum = (row: Record<string, unknown>): Counts =>
  Object.fromEntries(COUNT_NAMES.map((name) => [name, Number(row[name] ?? 0)])) as unknown as Counts;

/**
 * The project's rollups in [fromDay, toDay), summed per `by` (the other dimensions are added up). Per
 * prompt (grouped, or filtered by a prompt or a tag's prompts), from `result_rollups`: by day, its
 * daily rows; otherwise the period's whole weeks and the days around them. Otherwise from
 * `engine_rollups`, summed over prompts per day. Either way an indexed range scan of a few thousand
 * rows, whatever the number of answers.
 */
export async function sumRollups(
  ctx: ServiceContext,
  projectId: string,
  days: { fromDay: string; toDay: string },
  filters: RollupScope,
  by: readonly Dimension[],
): Promise<RollupSum[]> {
  const blank = sql<string>`''`;
  // A tag that no prompt carries keeps no answer.
  if (filters.prompts?.length === 0) return [];
  if (!by.includes("prompt") && filters.prompt === undefined && filters.prompts === undefined) {
    let query = ctx.db
      .selectFrom("engine_rollups")
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "=", projectId)
      .where("day", ">=", days.fromDay)
      .where("day", "<", days.toDay);
    if (filters.engine !== undefined) query = query.where("engine", "=", filters.engine);
    const rows = await query
      .select((eb) => [
        ...COUNT_NAMES.map((name) => eb.fn.sum<number>(name).as(name)),
        by.includes("day") ? eb.ref("day").as("day") : blank.as("day"),
        by.includes("engine") ? eb.ref("engine").as("engine") : blank.as("engine"),
        blank.as("prompt"),
        by.includes("subject") ? eb.ref("subject").as("subject") : blank.as("subject"),
      ])
      .groupBy(by.filter((dimension) => dimension !== "prompt"))
      .execute();
    return rows.map((row) => ({ ...row, ...toSum(row) }));
  }
  const spans: Span[] = by.includes("day")
    ? [{ grain: "day", from: days.fromDay, to: days.toDay }]
    : spansOf(days.fromDay, days.toDay);
  let query = ctx.db.selectFrom("result_rollups").where((eb) => inSpans(eb, ctx.workspace.id, projectId, spans));
  if (filters.engine !== undefined) query = query.where("engine", "=", filters.engine);
  if (filters.prompt !== undefined) query = query.where("prompt_key", "=", promptKey(filters.prompt));
  if (filters.prompts !== undefined) query = query.where("prompt_key", "in", filters.prompts.map(promptKey));
  const rows = await query
    .select((eb) => [
      ...COUNT_NAMES.map((name) => eb.fn.sum<number>(name).as(name)),
      by.includes("day") ? eb.ref("start").as("day") : blank.as("day"),
      by.includes("engine") ? eb.ref("engine").as("engine") : blank.as("engine"),
      by.includes("prompt") ? eb.fn.min<string>("prompt").as("prompt") : blank.as("prompt"),
      by.includes("subject") ? eb.ref("subject").as("subject") : blank.as("subject"),
    ])
    .groupBy(by.map((dimension) => (dimension === "prompt" ? "prompt_key" : dimension === "day" ? "start" : dimension)))
    .execute();
  return rows.map((row) => ({ ...row, ...toSum(row) }));
}

/**
 * Rows of a rollup table in any of the spans, each span a range of the primary key (project, grain,
 * start). The project and workspace are repeated inside every term, so that SQLite scans each range
 * by the key (a multi-index OR) instead of every row of the project, and PostgreSQL ORs index scans.
 */
export function inSpans<T extends "result_rollups" | "source_rollups" | "source_totals">(
  eb: ExpressionBuilder<Tables, T>,
  workspaceId: string,
  projectId: string,
  spans: readonly Span[],
): Expression<SqlBool> {
  const ref = eb as unknown as ExpressionBuilder<Tables, "result_rollups">;
  return ref.or(
    spans.map((span) =>
      ref.and([
        ref("project_id", "=", projectId),
        ref("workspace_id", "=", workspaceId),
        ref("grain", "=", span.grain),
        ref("start", ">=", span.from),
        ref("start", "<", span.to),
      ]),
    ),
  );
}

/** Answers added up: the brand's counts and each competitor's, then their figures. */
export class Tally {
  readonly brand = zero();
  readonly competitors = new Map<string, Counts>();

  add(row: RollupSum): void {
    if (row.subject === "") add(this.brand, row);
    else add(this.competitors.get(row.subject) ?? this.#new(row.subject), row);
  }

  #new(name: string): Counts {
    const counts = zero();
    this.competitors.set(name, counts);
    return counts;
  }

  slice(competitorNames: readonly string[]): Slice {
    return slice(this.brand, this.competitors, competitorNames);
  }
}

export const inPeriod = (row: { day: string }, period: Period) => row.day >= period.fromDay && row.day < period.toDay;
