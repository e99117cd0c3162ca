import type { Selectable } from "kysely";
import type { Db } from "../../db/database.ts";
import type { ReportsTable } from "../../db/tables.ts";
import { notFound } from "../../errors/api-error.ts";
import type { ServiceContext } from "../context.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { liveProjectIds } from "../projects/live.ts";
import { timeRange } from "../time-range.ts";
import { reportColumns } from "./columns.ts";
import type { Report, ReportData, ReportSummary, ReportType, StoredReportData } from "./types.ts";

type SummaryRow = Omit<Selectable<ReportsTable>, "data" | "workspace_id" | "dedupe_key">;

/** A report as lists show it: everything but its data. */
function rowToReportSummary(row: SummaryRow): ReportSummary {
  return {
    id: row.id,
    object: "report",
    type: row.type as ReportType,
    project_id: row.project_id,
    title: row.title,
    period: { start: row.period_start, end: row.period_end },
    analysis_id: row.analysis_id,
    run_id: row.run_id,
    schedule_id: row.schedule_id,
    created_at: row.created_at,
  };
}

function rowToReport(row: Selectable<ReportsTable>): Report {
  return { ...rowToReportSummary(row), data: reportData(reportColumns.data.read(row.data)) };
}

/**
 * The stored data as the API shows it. Reports generated before 2026-11-24 embedded their answers
 * and lack the fields that now stand for them: those are derived from the embedded answers.
 */
function reportData(stored: StoredReportData): ReportData {
  const results = stored.results ?? [];
  return {
    ...stored,
    result_count: stored.result_count ?? results.length,
    analysis_ids: stored.analysis_ids ?? (stored.source.analysis_id === null ? [] : [stored.source.analysis_id]),
    cited_kinds: stored.cited_kinds ?? citedKinds(results),
  };
}

/** Each answer's cited domains once, counted by the kind of site. */
export function citedKinds(rows: readonly { cited_domain_categories?: string[] }[]): Record<string, number> {
  const kinds = new Map<string, number>();
  for (const row of rows)
    for (const category of row.cited_domain_categories ?? []) kinds.set(category, (kinds.get(category) ?? 0) + 1);
  return Object.fromEntries(kinds);
}

export interface ReportFilters extends PageParams {
  project_id?: string;
  type?: ReportType;
  from?: string;
  to?: string;
}

/** Generated reports, newest first; `from`/`to` bound when they were generated, [from, to). */
export async function listReports(ctx: ServiceContext, filters: ReportFilters): Promise<Page<ReportSummary>> {
  const { from, to } = timeRange(filters);
  let query = ctx.db
    .selectFrom("reports")
    .select([
      "id",
      "type",
      "project_id",
      "title",
      "period_start",
      "period_end",
      "analysis_id",
      "run_id",
      "schedule_id",
      "created_at",
    ])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id));
  if (filters.project_id !== undefined) query = query.where("project_id", "=", filters.project_id);
  if (filters.type !== undefined) query = query.where("type", "=", filters.type);
  if (from !== undefined) query = query.where("created_at", ">=", from);
  if (to !== undefined) query = query.where("created_at", "<", to);
  return fetchPage(query, filters, rowToReportSummary);
}

export async function getReport(ctx: ServiceContext, id: string): Promise<Report> {
  const report = await reportById(ctx.db, ctx.workspace.id, id);
  if (report === null) throw notFound("report", id);
  return report;
}

/** The workspace's report, or null: for readers that have no workspace context (a shared link). */
export async function reportById(db: Db, workspaceId: string, id: string): Promise<Report | null> {
  const row = await db
    .selectFrom("reports")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", id)
    .where("project_id", "in", liveProjectIds(db, workspaceId))
    .executeTakeFirst();
  return row === undefined ? null : rowToReport(row);
}

/** NOT_FOUND unless the workspace has the report; reads none of its data. */
export async function assertReport(ctx: ServiceContext, id: string): Promise<void> {
  const row = await ctx.db
    .selectFrom("reports")
    .select("id")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id)
    .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id))
    .executeTakeFirst();
  if (row === undefined) throw notFound("report", id);
}
