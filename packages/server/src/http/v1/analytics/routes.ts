import { competitorLeaderboard } from "../../../services/analytics/competitors.ts";
import { projectMetrics } from "../../../services/analytics/metrics.ts";
import { promptMetrics } from "../../../services/analytics/prompts.ts";
import {
  LeaderboardQuery,
  LeaderboardSchema,
  MetricsQuery,
  ProjectMetricsSchema,
  ProjectSearchesSchema,
  ProjectSourcesSchema,
  PromptMetricsQuery,
  PromptMetricsSchema,
  SearchesQuery,
  SourcesQuery,
} from "../../../services/analytics/schemas.ts";
import { projectSearches } from "../../../services/analytics/searches.ts";
import { projectSources } from "../../../services/analytics/sources.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Analytics";
const errors = ["NOT_FOUND", "ENGINE_NOT_ALLOWED"] as const;
const counts =
  "Recomputed from the counts stored with each answer (per day, engine, prompt and brand), never averaged from ratios; failed answers count nowhere. Days are UTC.";

export const projectMetricsRoute = defineRoute({
  operationId: "getProjectMetrics",
  method: "GET",
  path: "/projects/:id/metrics",
  reads: "replica",
  tag,
  summary: "A brand's figures over time",
  description: `Visibility (with its 95% interval and n), share of voice, average position, sentiment (\`sentiment_score\`, 0 to 100), citation rate and visibility score, overall and per engine, for the period and per \`interval\`, with the period of the same length before and whether each change is statistically real. ${counts}`,
  scope: "results",
  extension: true,
  params: IdParams,
  query: MetricsQuery,
  success: { status: 200, description: "The brand's metrics.", schema: ProjectMetricsSchema },
  errors: [...errors],
  handler: ({ ctx, params, query }) => projectMetrics(ctx, params.id, query),
});

export const promptMetricsRoute = defineRoute({
  operationId: "getPromptMetrics",
  method: "GET",
  path: "/projects/:id/prompts/metrics",
  reads: "replica",
  tag,
  summary: "A brand's figures per prompt and engine",
  description: `One row per prompt × engine with answers in the period: the heat map of where the brand is seen. ${counts}`,
  scope: "results",
  extension: true,
  params: IdParams,
  query: PromptMetricsQuery,
  success: { status: 200, description: "Figures per prompt and engine.", schema: PromptMetricsSchema },
  errors: [...errors],
  handler: ({ ctx, params, query }) => promptMetrics(ctx, params.id, query),
});

export const projectSourcesRoute = defineRoute({
  operationId: "getProjectSources",
  method: "GET",
  path: "/projects/:id/sources",
  reads: "replica",
  tag,
  summary: "What engines cite for a brand's prompts",
  description:
    "The most cited domains (the brand's own, a competitor's, or other) with their counts, the period before and a series over time, and the most cited URLs; each with its citation category (owned, competitor, social, reference, news, review, other), citations per category, and `category` to keep one.",
  scope: "results",
  extension: true,
  params: IdParams,
  query: SourcesQuery,
  success: { status: 200, description: "Cited sources.", schema: ProjectSourcesSchema },
  errors: [...errors],
  handler: ({ ctx, params, query }) => projectSources(ctx, params.id, query),
});

export const competitorsRoute = defineRoute({
  operationId: "getCompetitorLeaderboard",
  method: "GET",
  path: "/projects/:id/competitors",
  reads: "replica",
  tag,
  summary: "The brand against its competitors",
  description: `The brand and each competitor by visibility, share of voice and position, against the period before; \`significant\` when the visibility intervals do not overlap. ${counts}`,
  scope: "results",
  extension: true,
  params: IdParams,
  query: LeaderboardQuery,
  success: { status: 200, description: "The leaderboard.", schema: LeaderboardSchema },
  errors: [...errors],
  handler: ({ ctx, params, query }) => competitorLeaderboard(ctx, params.id, query),
});

export const projectSearchesRoute = defineRoute({
  operationId: "getProjectSearches",
  method: "GET",
  path: "/projects/:id/searches",
  reads: "replica",
  tag,
  summary: "The web searches engines ran for a brand's prompts",
  description:
    "Query fan-out: the searches engines ran while answering in the period, read from each vendor's structured output, with how many answers ran each (case and spacing ignored, the most common spelling shown), per engine, and whether each names the brand or which competitors. Most run first.",
  scope: "results",
  extension: true,
  params: IdParams,
  query: SearchesQuery,
  success: { status: 200, description: "The searches.", schema: ProjectSearchesSchema },
  errors: [...errors],
  handler: ({ ctx, params, query }) => projectSearches(ctx, params.id, query),
});
