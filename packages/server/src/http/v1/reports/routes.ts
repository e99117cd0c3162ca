import { reportCsv } from "../../../services/reports/render/csv.ts";
import { reportHtml } from "../../../services/reports/render/html.ts";
import { getReport, listReports } from "../../../services/reports/reports.ts";
import { ReportListQuery, ReportListSchema, ReportQuery, ReportSchema } from "../../../services/reports/schemas.ts";
import { defineRoute, RawResponse } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Reports";

export const listReportsRoute = defineRoute({
  operationId: "listReports",
  method: "GET",
  path: "/reports",
  tag,
  summary: "List reports",
  description: "Generated reports, newest first, filtered by brand, type and when they were generated [from, to).",
  scope: "reports",
  query: ReportListQuery,
  success: { status: 200, description: "A page of reports.", schema: ReportListSchema },
  handler: ({ ctx, query }) => listReports(ctx, query),
});

export const getReportRoute = defineRoute({
  operationId: "getReport",
  method: "GET",
  path: "/reports/:id",
  tag,
  summary: "Read a report",
  description:
    "The report as JSON, or `format=csv` (its results table) or `format=html` (a self-contained printable page with charts).",
  scope: "reports",
  params: IdParams,
  query: ReportQuery,
  success: {
    status: 200,
    description: "The report.",
    schema: ReportSchema,
    alternatives: [
      { contentType: "text/csv", description: "With format=csv: one row per answer." },
      { contentType: "text/html", description: "With format=html: a printable page with inline SVG charts." },
    ],
  },
  errors: ["NOT_FOUND"],
  handler: async ({ ctx, params, query }) => {
    const report = await getReport(ctx, params.id);
    if (query.format === "csv")
      return new RawResponse("text/csv; charset=utf-8", reportCsv(report), `${report.id}.csv`);
    if (query.format === "html") {
      // The page is self-contained: no script and nothing fetched, whatever an answer's text holds.
      return new RawResponse("text/html; charset=utf-8", reportHtml(report), undefined, {
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      });
    }
    return report;
  },
});
