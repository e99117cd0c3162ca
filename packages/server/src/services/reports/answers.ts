import type { Selectable } from "kysely";
import { type SqlBool, sql } from "kysely";
import type { ResultsTable } from "../../db/tables.ts";
import type { ServiceContext } from "../context.ts";
import { resultColumns } from "../results/columns.ts";
import { resultRow } from "./generate.ts";
import { type AnswerDetail, csvHeader, csvLine } from "./render/csv.ts";
import type { Report, ResultRow } from "./types.ts";

/** Answers read per statement while streaming a report's table. */
const PAGE = 500;

/**
 * Every answer a report covers, in pages: its analyses in order, each one's answers oldest first.
 * Reports generated before 2026-11-24 carry their answers and are read from there.
 */
async function* reportAnswers(
  ctx: ServiceContext,
  report: Report,
): AsyncGenerator<{ row: ResultRow; detail: AnswerDetail | null }[]> {
  if (report.data.results !== undefined) {
    yield report.data.results.map((row) => ({ row, detail: null }));
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
      if (rows.length > 0) yield rows.map((row) => ({ row: resultRow(row), detail: detailOf(row) }));
      const last = rows[rows.length - 1];
      if (rows.length < PAGE || last === undefined) break;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
}

function detailOf(row: Selectable<ResultsTable>): AnswerDetail {
  const measure = resultColumns.measure.readNullable(row.measure);
  return {
    text: row.text,
    error: row.error,
    stance: measure?.brand.stance ?? null,
    citations: row.citation_count,
    brand_citations: row.brand_citation_count,
    cost_usd: row.cost_micros === null ? null : row.cost_micros / 1_000_000,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    search_calls: row.search_calls,
    attempts: row.attempts,
    latency_ms: row.latency_ms,
    score_version: row.score_version,
  };
}

/** The report's table as CSV, one line per answer, written as it is read. */
export async function* reportCsvChunks(ctx: ServiceContext, report: Report): AsyncGenerator<string> {
  yield csvHeader();
  for await (const rows of reportAnswers(ctx, report)) yield rows.map((r) => csvLine(r.row, r.detail)).join("");
}
