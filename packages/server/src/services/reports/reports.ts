import type { Selectable } from "kysely";
import type { ReportsTable } from "../../db/tables.ts";
import { notFound, validationError } from "../../errors/api-error.ts";
import { fromJson } from "../../lib/json.ts";
import type { ServiceContext } from "../context.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { REPORT_TYPES, type Report, type ReportData, type ReportType } from "./types.ts";

export function rowToReport(row: Selectable<ReportsTable>): Report {
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
    data: fromJson<ReportData>(row.data, {} as ReportData),
    created_at: row.created_at,
  };
}

function instant(field: string, value: string): string {
  const parsed = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(parsed)) {
    throw validationError([{ field, issue: "must be an ISO 8601 date or date-time" }]);
  }
  return new Date(parsed).toISOString();
}

export interface ReportFilters extends PageParams {
  project_id?: string;
  type?: string;
  from?: string;
  to?: string;
}

/** Generated reports, newest first; `from`/`to` bound when they were generated, [from, to). */
export async function listReports(ctx: ServiceContext, filters: ReportFilters): Promise<Page<Omit<Report, "data">>> {
  if (filters.type !== undefined && !(REPORT_TYPES as readonly string[]).includes(filters.type)) {
    throw validationError([{ field: "type", issue: `must be one of ${REPORT_TYPES.join(", ")}` }]);
  }
  const from = filters.from === undefined ? undefined : instant("from", filters.from);
  const to = filters.to === undefined ? undefined : instant("to", filters.to);
  if (from !== undefined && to !== undefined && from >= to)
    throw validationError([{ field: "to", issue: "must be after from" }]);
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
    .where("workspace_id", "=", ctx.workspace.id);
  if (filters.project_id !== undefined) query = query.where("project_id", "=", filters.project_id);
  if (filters.type !== undefined) query = query.where("type", "=", filters.type);
  if (from !== undefined) query = query.where("created_at", ">=", from);
  if (to !== undefined) query = query.where("created_at", "<", to);
  return fetchPage(query, filters, (row) => {
    const { data: _data, ...rest } = rowToReport({
      ...row,
      workspace_id: ctx.workspace.id,
      dedupe_key: "",
      data: "{}",
    });
    return rest;
  });
}

export async function getReport(ctx: ServiceContext, id: string): Promise<Report> {
  const row = await ctx.db
    .selectFrom("reports")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id)
    .executeTakeFirst();
  if (row === undefined) throw notFound("report", id);
  return rowToReport(row);
}
