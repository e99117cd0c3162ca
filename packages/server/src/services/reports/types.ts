import type { Static } from "typebox";
import type {
  HistoryPointSchema,
  REPORT_TYPES,
  ReportSchema,
  ReportSummarySchema,
  ResultRowSchema,
} from "./schemas.ts";

export type ReportType = (typeof REPORT_TYPES)[number];

/** One earlier analysis in a report's history chart. */
export type HistoryPoint = Static<typeof HistoryPointSchema>;

/** One answer in a report's table (what `format=csv` returns). */
export type ResultRow = Static<typeof ResultRowSchema>;

/** A report as the API and the dashboard show it. */
export type Report = Static<typeof ReportSchema>;

export type ReportData = Report["data"];

export type ReportSummary = Static<typeof ReportSummarySchema>;
