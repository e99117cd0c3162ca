import type { Static } from "typebox";
import type { AnalysisSchema, AnalysisSummarySchema } from "./schemas.ts";

/** An analysis as the API, the events and the dashboard show it. */
export type Analysis = Static<typeof AnalysisSchema>;

export type AnalysisStatus = Analysis["status"];
export type AnalysisTrigger = Analysis["trigger"];

/** One engine whose answers failed, with what its vendor said and how many answers it cost. */
export type EngineFailureSummary = Analysis["errors"][number];

export type AnalysisSummary = Static<typeof AnalysisSummarySchema>;

export const RUN_ANALYSIS_JOB = "analysis.run";
