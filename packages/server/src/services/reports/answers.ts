import { type SqlBool, sql } from "kysely";
import type { ServiceContext } from "../context.ts";
import { resultRow } from "./generate.ts";
import { csvHeader, csvLine } from "./render/csv.ts";
import type { Report, ResultRow } from "./types.ts";

/** Answers read per statement while streaming a report's table. */
const PAGE = 500;

/**
 * Every answer a report covers, in pages: its analyses in order, each one's answers oldest first.
 * Reports generated before 2026-11-24 carry their answers and are read from there.
 */
async function* reportAnswers(ctx: ServiceContext, report: Report): AsyncGenerator<ResultRow[]> {
  if (report.data.results !== undefined) {
    yield report.data.results;
    return;
  }
  for (const analysisId of report.data.analysis_ids) {
    let after: { createdAt: string; id: string } | null = null;
    for (;;) {
      let query = ctx.db
        .selectFrom("results")
        .selectAll()
        .where("workspace_id", "=", ctx.workspace.id)
        .where("analysis_id", "=", analysisId);
      if (after !== null) {
        const { createdAt, id } = after;
        query = query.where(sql<SqlBool>`(created_at, id) > (${createdAt}, ${id})`);
      }
      const rows = await query.orderBy("created_at").orderBy("id").limit(PAGE).execute();
      if (rows.length > 0) yield rows.map(resultRow);
      const last = rows[rows.length - 1];
      if (rows.length < PAGE || last === undefined) break;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
}

/** The report's table as CSV, one line per answer, written as it is read. */
export async function* reportCsvChunks(ctx: ServiceContext, report: Report): AsyncGenerator<string> {
  yield csvHeader();
  for await (const rows of reportAnswers(ctx, report)) yield rows.map(csvLine).join("");
}
