import { sql } from "kysely";
import type { Static } from "typebox";
import type { Db } from "../../db/database.ts";
import { microsToUsd } from "../engines/prices.ts";
import type { CostSchema } from "./schemas.ts";

/** What answers used and cost, summed (ADR 0029). */
export interface CostTally {
  answers: number;
  inputTokens: number;
  outputTokens: number;
  searchCalls: number;
  costMicros: number;
}

export type CostView = Static<typeof CostSchema>;

const zero = (): CostTally => ({ answers: 0, inputTokens: 0, outputTokens: 0, searchCalls: 0, costMicros: 0 });

function add(into: CostTally, from: CostTally): void {
  into.answers += from.answers;
  into.inputTokens += from.inputTokens;
  into.outputTokens += from.outputTokens;
  into.searchCalls += from.searchCalls;
  into.costMicros += from.costMicros;
}

function figures(tally: CostTally) {
  return {
    answers: tally.answers,
    input_tokens: tally.inputTokens,
    output_tokens: tally.outputTokens,
    search_calls: tally.searchCalls,
  };
}

/** Tallies by engine as the API shows them: USD totals, token and search counts, and USD per engine. */
export function costView(byEngine: ReadonlyMap<string, CostTally>): CostView {
  const total = zero();
  for (const tally of byEngine.values()) add(total, tally);
  const engines = [...byEngine].filter(([, tally]) => tally.answers > 0).sort(([a], [b]) => a.localeCompare(b));
  return {
    currency: "USD",
    total: microsToUsd(total.costMicros),
    ...figures(total),
    by_engine: Object.fromEntries(
      engines.map(([engine, tally]) => [engine, { cost: microsToUsd(tally.costMicros), ...figures(tally) }]),
    ),
  };
}

/** The sums `usageSums` selects, read as a tally. */
export function tallyOf(row: {
  answers: number | string;
  input_tokens: number | string;
  output_tokens: number | string;
  search_calls: number | string;
  cost_micros: number | string;
}): CostTally {
  return {
    answers: Number(row.answers),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    searchCalls: Number(row.search_calls),
    costMicros: Number(row.cost_micros),
  };
}

/** Sums of the results' usage columns, for a grouped select (`answers` counts the rows). */
export const usageSums = [
  sql<number>`count(*)`.as("answers"),
  sql<number>`coalesce(sum(input_tokens), 0)`.as("input_tokens"),
  sql<number>`coalesce(sum(output_tokens), 0)`.as("output_tokens"),
  sql<number>`coalesce(sum(search_calls), 0)`.as("search_calls"),
  sql<number>`coalesce(sum(cost_micros), 0)`.as("cost_micros"),
] as const;

/** Adds one answer's usage columns to the engine's tally. */
export function countAnswerCost(
  byEngine: Map<string, CostTally>,
  engine: string,
  row: {
    input_tokens: number | null;
    output_tokens: number | null;
    search_calls: number | null;
    cost_micros: number | null;
  },
): void {
  const tally = byEngine.get(engine) ?? zero();
  add(tally, {
    answers: 1,
    inputTokens: Number(row.input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    searchCalls: Number(row.search_calls ?? 0),
    costMicros: Number(row.cost_micros ?? 0),
  });
  byEngine.set(engine, tally);
}

/**
 * Adds a finished analysis's usage to its workspace's period, per engine, in the analysis's final
 * transaction (so each analysis is counted once, whatever retries its job met).
 */
export async function addCostUsage(
  db: Db,
  key: { workspaceId: string; periodStart: string },
  byEngine: ReadonlyMap<string, CostTally>,
): Promise<void> {
  for (const [engine, tally] of byEngine) {
    if (tally.answers === 0) continue;
    await db
      .insertInto("cost_usage")
      .values({
        workspace_id: key.workspaceId,
        period_start: key.periodStart,
        engine,
        answers: tally.answers,
        input_tokens: tally.inputTokens,
        output_tokens: tally.outputTokens,
        search_calls: tally.searchCalls,
        cost_micros: tally.costMicros,
      })
      .onConflict((oc) =>
        oc.columns(["workspace_id", "period_start", "engine"]).doUpdateSet((eb) => ({
          answers: eb("cost_usage.answers", "+", tally.answers),
          input_tokens: eb("cost_usage.input_tokens", "+", tally.inputTokens),
          output_tokens: eb("cost_usage.output_tokens", "+", tally.outputTokens),
          search_calls: eb("cost_usage.search_calls", "+", tally.searchCalls),
          cost_micros: eb("cost_usage.cost_micros", "+", tally.costMicros),
        })),
      )
      .execute();
  }
}

/** The workspace's usage and cost per billing period (newest first) and engine, from `cost_usage`. */
export async function costsByPeriod(
  db: Db,
  workspaceId: string,
  periods: readonly string[],
): Promise<Map<string, Map<string, CostTally>>> {
  const out = new Map<string, Map<string, CostTally>>(periods.map((start) => [start, new Map()]));
  if (periods.length === 0) return out;
  const rows = await db
    .selectFrom("cost_usage")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .where("period_start", "in", periods)
    .execute();
  for (const row of rows) out.get(row.period_start)?.set(row.engine, tallyOf(row));
  return out;
}
