import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { Tables } from "../db/tables.ts";
import { validationError } from "../errors/api-error.ts";
import { isId } from "../lib/ids.ts";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PageParams {
  limit?: number;
  cursor?: string;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

interface Position {
  createdAt: string;
  id: string;
}

/** Cursors are opaque to clients: base64url of the last row's (created_at, id). */
function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString("base64url");
}

function decodeCursor(cursor: string): Position {
  const invalid = () => validationError([{ field: "cursor", issue: "is not a cursor returned by this API" }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== "string" ||
    typeof parsed[1] !== "string" ||
    !isId(parsed[1]) ||
    !/^\d{4}-\d{2}-\d{2}T/.test(parsed[0]) ||
    Number.isNaN(Date.parse(parsed[0]))
  ) {
    throw invalid();
  }
  return { createdAt: new Date(parsed[0]).toISOString(), id: parsed[1] };
}

/**
 * Newest first, keyset-paginated on (created_at, id): rows inserted while a client pages
 * through a list land before its cursor and never shift or repeat later pages.
 */
export async function fetchPage<T extends keyof Tables, Row extends { created_at: string; id: string }, Out>(
  query: SelectQueryBuilder<Tables, T, Row>,
  params: PageParams,
  toItem: (row: Row) => Out,
): Promise<Page<Out>> {
  const limit = params.limit ?? DEFAULT_PAGE_SIZE;
  const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor);
  return pageOf(await newestFirst(query, after, limit + 1), limit, toItem);
}

/** A half-open range [from, to) of `created_at` (null: unbounded), and what else narrows it. */
export interface TimeWindow {
  from: string | null;
  to: string | null;
  /** A condition every row of the window meets, that the database can use (a partition's key). */
  narrow?: RawBuilder<SqlBool>;
}

/**
 * {@link fetchPage}, read one time window after another, newest first, until the page is full:
 * `windows(upper)` gives disjoint windows, newest first, that together hold every row at or
 * before `upper` (the cursor's time, or null on the first page). On a table partitioned by
 * month, a window within a month lets PostgreSQL plan that one partition instead of all of them.
 */
export async function fetchPageInWindows<T extends keyof Tables, Row extends { created_at: string; id: string }, Out>(
  query: SelectQueryBuilder<Tables, T, Row>,
  params: PageParams,
  toItem: (row: Row) => Out,
  windows: (upper: string | null) => Promise<TimeWindow[]>,
): Promise<Page<Out>> {
  const limit = params.limit ?? DEFAULT_PAGE_SIZE;
  const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor);
  const rows: Row[] = [];
  for (const window of await windows(after?.createdAt ?? null)) {
    let q = query;
    if (window.from !== null) q = q.where(sql<SqlBool>`created_at >= ${window.from}`);
    if (window.to !== null) q = q.where(sql<SqlBool>`created_at < ${window.to}`);
    if (window.narrow !== undefined) q = q.where(window.narrow);
    // The cursor's row-value bound does not prune partitions; its time, as a plain bound, does.
    if (after !== undefined) q = q.where(sql<SqlBool>`created_at <= ${after.createdAt}`);
    rows.push(...(await newestFirst(q, after, limit + 1 - rows.length)));
    if (rows.length > limit) break;
  }
  return pageOf(rows, limit, toItem);
}

async function newestFirst<T extends keyof Tables, Row extends { created_at: string; id: string }>(
  query: SelectQueryBuilder<Tables, T, Row>,
  after: Position | undefined,
  count: number,
): Promise<Row[]> {
  let q = query;
  if (after !== undefined) {
    // The row-value form, not `a < x or (a = x and b < y)`: both databases turn it into a range of
    // the (…, created_at, id) index instead of a filter after the scan, so a deep page costs what
    // the first one does (PostgreSQL at 1,000,000 results with engine=: 1,189 ms → 2.2 ms).
    q = q.where(sql<SqlBool>`(created_at, id) < (${after.createdAt}, ${after.id})`);
  }
  return q.orderBy(sql`created_at`, "desc").orderBy(sql`id`, "desc").limit(count).execute();
}

function pageOf<Row extends { created_at: string; id: string }, Out>(
  rows: Row[],
  limit: number,
  toItem: (row: Row) => Out,
): Page<Out> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(toItem),
    has_more: hasMore,
    next_cursor: hasMore && last !== undefined ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}
