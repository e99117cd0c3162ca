import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Db } from "../../db/database.ts";
import { monthOf, monthStart } from "../../lib/months.ts";
import type { Deps } from "../context.ts";
import type { TimeWindow } from "../pagination.ts";

/** The databases whose `results` is partitioned by month: once it is, it stays so. */
const partitionedResults = new WeakSet<object>();

async function isPartitioned(deps: Deps, db: Db): Promise<boolean> {
  if (!deps.sql.partitionsResults) return false;
  if (partitionedResults.has(deps.db)) return true;
  const { rows } = await sql<{ kind: string }>`
    SELECT relkind AS kind FROM pg_class WHERE oid = to_regclass('results')`.execute(db);
  if (rows[0]?.kind !== "p") return false;
  partitionedResults.add(deps.db);
  return true;
}

interface Spill {
  month: string;
  oldest: number;
  newest: number;
}

/**
 * The windows in which to read `results` newest first ({@link fetchPageInWindows}), for answers at
 * or before a cursor's time `upTo` (null: now and after), before `to` and from `from` on: the month
 * of the newest answer that can be read and all after it, the month before, then everything older.
 *
 * On PostgreSQL's monthly partitions each of the first two also names the partitions that can hold
 * its answers, so that PostgreSQL plans those instead of all of them (2.2 ms a page at 16
 * partitions, and about 14 ms on a new connection): an answer's partition is its analysis's month,
 * which is its own month except for those `result_spills` lists (an analysis that ran past its
 * month's end). Elsewhere the windows only split the range, and a page is read as one range.
 */
export async function resultWindows(
  deps: Deps,
  db: Db,
  range: { upTo: string | null; from?: string | undefined; to?: string | undefined },
): Promise<TimeWindow[]> {
  const { from, to } = range;
  if (!(await isPartitioned(deps, db))) return [{ from: null, to: null }];
  const { rows } = await sql<{ month: string; oldest_at: string; newest_at: string }>`
    SELECT month, oldest_at, newest_at FROM result_spills`.execute(db);
  const spills: Spill[] = rows.map((row) => ({
    month: row.month,
    oldest: Date.parse(row.oldest_at),
    newest: Date.parse(row.newest_at),
  }));
  // The months whose answers from outside them reach into [after, before).
  const spilled = (after: number, before: number) =>
    spills.filter((s) => s.newest >= after && s.oldest < before).map((s) => s.month);
  // The newest time an answer read can have, if there is one.
  const bounds = [
    range.upTo === null ? Number.NaN : Date.parse(range.upTo),
    to === undefined ? Number.NaN : Date.parse(to) - 1,
  ];
  const known = bounds.filter((bound) => !Number.isNaN(bound));
  const upper = known.length === 0 ? null : Math.min(...known);
  const top = new Date(upper ?? deps.clock.now().getTime());
  const thisMonth = monthStart(top);
  const lastMonth = monthStart(top, -1);
  const months = (list: string[]): RawBuilder<SqlBool> => sql<SqlBool>`month = ANY(${[...new Set(list)]}::text[])`;
  const windows: TimeWindow[] = [
    {
      from: thisMonth.toISOString(),
      to: null,
      // Up to `upper`, its month; without one, this month and every month ahead.
      narrow:
        upper === null
          ? sql<SqlBool>`(month >= ${monthOf(thisMonth)} OR ${months(spilled(thisMonth.getTime(), Number.POSITIVE_INFINITY))})`
          : months([monthOf(top), ...spilled(thisMonth.getTime(), upper + 1)]),
    },
    {
      from: lastMonth.toISOString(),
      to: thisMonth.toISOString(),
      narrow: months([monthOf(lastMonth), ...spilled(lastMonth.getTime(), thisMonth.getTime())]),
    },
    { from: null, to: lastMonth.toISOString() },
  ];
  return windows.filter((window) => from === undefined || window.to === null || window.to > from);
}
