import type { Static } from "typebox";
import type {
  HistoryPointSchema,
  REPORT_TYPES,
  ReportAudiencesSchema,
  ReportConversationSchema,
  ReportExperimentSchema,
  ReportSchema,
  ReportSummarySchema,
  ReportTrafficSchema,
  ResultRowSchema,
  StoredReportDataSchema,
} from "./schemas.ts";

export type ReportType = (typeof REPORT_TYPES)[number];

/** One earlier analysis in a report's history chart. */
export type HistoryPoint = Static<typeof HistoryPointSchema>;

/** One answer in a report's table (what `format=csv` returns). */
export type ResultRow = Static<typeof ResultRowSchema>;

/** A report as the API and the dashboard show it. */
export type Report = Static<typeof ReportSchema>;

export type ReportData = Report["data"];

/** The data as stored: without the answer fields on reports generated before 2026-11-24. */
export type StoredReportData = Static<typeof StoredReportDataSchema>;

export type ReportSummary = Static<typeof ReportSummarySchema>;

/** The brand's AI crawlers and referrals in a report (issue 26). */
export type ReportTraffic = Static<typeof ReportTrafficSchema>;

/** One of the brand's finished experiments in a report (issue 27). */
export type ReportExperiment = Static<typeof ReportExperimentSchema>;

/** A conversation script's figures in a report (issue 29). */
export type ReportConversation = Static<typeof ReportConversationSchema>;

/** Visibility per persona and per country in a report (issue 29). */
export type ReportAudiences = Static<typeof ReportAudiencesSchema>;
