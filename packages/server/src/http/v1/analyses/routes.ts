import { createAnalysis } from "../../../services/analyses/create.ts";
import { getAnalysis, listAnalyses } from "../../../services/analyses/read.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";
import { AnalysisListQuery, AnalysisListSchema, AnalysisSchema, AnalyzeSchema } from "./schemas.ts";

const tag = "Analyses";

export const analyzeRoute = defineRoute({
  operationId: "analyze",
  method: "POST",
  path: "/analyze",
  tag,
  summary: "Run an analysis",
  description:
    "Queues an analysis of a brand: each prompt is asked of each engine `samples` times, and each answer is measured. Reserves one credit per answer; credits of answers that fail are given back. Emits `analysis.completed` when it finishes.",
  scope: "analyze",
  body: AnalyzeSchema,
  success: { status: 202, description: "The analysis, queued.", schema: AnalysisSchema },
  errors: ["NOT_FOUND", "ENGINE_NOT_ALLOWED", "BILLING_LIMIT_EXCEEDED", "BILLING_UNAVAILABLE"],
  handler: ({ ctx, body }) => createAnalysis(ctx, body),
});

export const getAnalysisRoute = defineRoute({
  operationId: "getAnalysis",
  method: "GET",
  path: "/analyses/:id",
  tag,
  summary: "Read an analysis",
  description: "Its status, progress, the engines that failed and, once finished, its summary metrics.",
  scope: "analyze",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The analysis.", schema: AnalysisSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getAnalysis(ctx, params.id),
});

export const listAnalysesRoute = defineRoute({
  operationId: "listAnalyses",
  method: "GET",
  path: "/analyses",
  tag,
  summary: "List analyses",
  description: "The workspace's analyses, newest first, optionally of one brand or in one status.",
  scope: "analyze",
  extension: true,
  query: AnalysisListQuery,
  success: { status: 200, description: "A page of analyses.", schema: AnalysisListSchema },
  handler: ({ ctx, query }) => listAnalyses(ctx, query),
});
