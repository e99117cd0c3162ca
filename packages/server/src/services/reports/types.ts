import type { AnalysisSummary } from "../analyses/types.ts";
import type { AlertView } from "../monitoring/types.ts";

export type ReportType = "analysis" | "monitoring_run" | "weekly_digest";
export const REPORT_TYPES: readonly ReportType[] = ["analysis", "monitoring_run", "weekly_digest"];

export interface HistoryPoint {
  at: string;
  analysis_id: string;
  visibility: number | null;
  share_of_voice: number | null;
  average_position: number | null;
  visibility_score: number | null;
  by_engine: Record<string, number | null>;
}

export interface ResultRow {
  id: string;
  created_at: string;
  engine: string;
  model: string | null;
  prompt: string;
  sample: number;
  status: string;
  mentioned: boolean;
  position: number | null;
  sentiment: number | null;
  brand_cited: boolean;
  score: number | null;
  cited_domains: string[];
  competitors_mentioned: string[];
}

/** What a report holds, frozen when it is generated: later data never changes it. */
export interface ReportData {
  project: { id: string; name: string; primary_domain: string; competitors: string[] };
  source: { analysis_id: string | null; run_id: string | null; schedule_id: string | null };
  summary: AnalysisSummary;
  history: HistoryPoint[];
  alerts: AlertView[];
  results: ResultRow[];
}

export interface Report {
  id: string;
  object: "report";
  type: ReportType;
  project_id: string;
  title: string;
  period: { start: string; end: string };
  analysis_id: string | null;
  run_id: string | null;
  schedule_id: string | null;
  data: ReportData;
  created_at: string;
}
