import type { Summary } from "../measurement/aggregate.ts";

export type AnalysisStatus = "queued" | "running" | "completed" | "failed";
export type AnalysisTrigger = "api" | "monitoring" | "dashboard" | "cli";

export interface EngineFailureSummary {
  engine: string;
  code: "ENGINE_FAILURE";
  message: string;
  /** How many of the engine's answers failed this way. */
  answers: number;
}

export interface AnalysisSummary {
  overall: Summary;
  by_engine: Record<string, Summary>;
  by_prompt: { prompt: string; summary: Summary }[];
}

/** An analysis as the API, the events and the dashboard show it. */
export interface Analysis {
  id: string;
  object: "analysis";
  project_id: string;
  status: AnalysisStatus;
  trigger: AnalysisTrigger;
  schedule_id: string | null;
  engines: string[];
  prompts: string[];
  samples: number;
  country: string | null;
  language: string | null;
  progress: { total: number; succeeded: number; failed: number; pending: number };
  credits: { reserved: number; released: number };
  errors: EngineFailureSummary[];
  summary: AnalysisSummary | null;
  score_version: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export const ANALYSIS_LIMITS = { samples: 10, prompts: 200, answers: 2_000 } as const;

export const RUN_ANALYSIS_JOB = "analysis.run";
