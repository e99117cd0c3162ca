import { Readable } from "node:stream";
import { brandingOf } from "../../../services/branding/branding.ts";
import { reportCsvChunks } from "../../../services/reports/answers.ts";
import { reportHtml } from "../../../services/reports/render/html.ts";
import { reportPdf } from "../../../services/reports/render/pdf.ts";
import { getReport, listReports } from "../../../services/reports/reports.ts";
import {
  CreateReportShareBody,
  ReportListQuery,
  ReportListSchema,
  ReportQuery,
  ReportSchema,
  ReportShareListSchema,
  ReportShareParams,
  ReportShareSchema,
} from "../../../services/reports/schemas.ts";
import { createReportShare, listReportShares, revokeReportShare } from "../../../services/reports/shares.ts";
import { reportFileName } from "../../../services/reports/titles.ts";
import { defineRoute, RawResponse } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Reports";

export const listReportsRoute = defineRoute({
  operationId: "listReports",
  method: "GET",
  path: "/reports",
  reads: "replica",
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
  reads: "replica",
  tag,
  summary: "Read a report",
  description:
    "The report as JSON, or `format=csv` (its results table), `format=html` (a self-contained printable page with charts) or `format=pdf` (the same page as an A4 PDF with vector charts).",
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
      { contentType: "application/pdf", description: "With format=pdf: the report as a PDF, charts included." },
    ],
  },
  errors: ["NOT_FOUND"],
  handler: async ({ ctx, params, query }) => {
    const report = await getReport(ctx, params.id);
    if (query.format === "csv") {
      // Streamed: a digest's answers are read a page at a time, never all held at once.
      return new RawResponse(
        "text/csv; charset=utf-8",
        Readable.from(reportCsvChunks(ctx, report)),
        reportFileName(report.title, "csv"),
      );
    }
    if (query.format === "pdf") {
      const branding = await brandingOf(ctx, ctx.workspace.id);
      return new RawResponse("application/pdf", await reportPdf(report, branding), reportFileName(report.title, "pdf"));
    }
    if (query.format === "html") {
      // The workspace's name, logo and colours, as a client it sends the report to sees them.
      const branding = await brandingOf(ctx, ctx.workspace.id);
      // The page is self-contained: no script and nothing fetched, whatever an answer's text holds.
      return new RawResponse("text/html; charset=utf-8", reportHtml(report, branding), undefined, {
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      });
    }
    return report;
  },
});

export const createReportShareRoute = defineRoute({
  operationId: "createReportShare",
  method: "POST",
  path: "/reports/:id/shares",
  tag,
  summary: "Share a report by link",
  description:
    "A link that opens the report's page without an account: signed, read-only, that report only, for `expires_in_days` (30 by default, at most 365) or until revoked. `format=pdf` on the link gives the PDF.",
  scope: "reports",
  params: IdParams,
  body: CreateReportShareBody,
  bodyOptional: true,
  success: { status: 201, description: "The link.", schema: ReportShareSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => createReportShare(ctx, params.id, body ?? {}),
});

export const listReportSharesRoute = defineRoute({
  operationId: "listReportShares",
  method: "GET",
  path: "/reports/:id/shares",
  tag,
  summary: "List a report's links",
  description: "The report's shared links, newest first, revoked and expired ones included (`active` says which open).",
  scope: "reports",
  params: IdParams,
  success: { status: 200, description: "The links.", schema: ReportShareListSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => listReportShares(ctx, params.id),
});

export const revokeReportShareRoute = defineRoute({
  operationId: "revokeReportShare",
  method: "DELETE",
  path: "/reports/:id/shares/:share_id",
  tag,
  summary: "Revoke a report's link",
  description: "From now on the link answers 404. Revoking a revoked link changes nothing.",
  scope: "reports",
  params: ReportShareParams,
  success: { status: 200, description: "The revoked link.", schema: ReportShareSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => revokeReportShare(ctx, params.id, params.share_id),
});
