import type { Project } from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import { type Period, periodQuery } from "../../lib/period.ts";
import { keys } from "../../lib/queries.ts";

/** The analytics reads of one brand (docs/analytics-api.md), each for a period (with its tag) and an engine. */

function key(workspaceId: string, projectId: string, part: string, period: Period, engine: string | undefined) {
  return keys.workspacePart(
    workspaceId,
    "analytics",
    projectId,
    part,
    period.from,
    period.to,
    engine ?? "all",
    `tag:${period.tag ?? ""}`,
  );
}

export function metricsQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: [...key(workspaceId, projectId, "metrics", period, engine), period.interval],
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getProjectMetrics",
        { params: { id: projectId }, query: { ...periodQuery(period, engine), interval: period.interval } },
        { signal },
      ),
  });
}

export function promptMetricsQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: key(workspaceId, projectId, "prompts", period, engine),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getPromptMetrics",
        { params: { id: projectId }, query: periodQuery(period, engine) },
        { signal },
      ),
  });
}

export function sourcesQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: key(workspaceId, projectId, "sources", period, engine),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getProjectSources",
        { params: { id: projectId }, query: { ...periodQuery(period, engine), limit: 50 } },
        { signal },
      ),
  });
}

export function competitorsQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: key(workspaceId, projectId, "competitors", period, engine),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getCompetitorLeaderboard",
        { params: { id: projectId }, query: periodQuery(period, engine) },
        { signal },
      ),
  });
}

export function searchesQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: key(workspaceId, projectId, "searches", period, engine),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getProjectSearches",
        { params: { id: projectId }, query: { ...periodQuery(period, engine), limit: 100 } },
        { signal },
      ),
  });
}

export function suggestionsQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: key(workspaceId, projectId, "competitor-suggestions", period, engine),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getCompetitorSuggestions",
        { params: { id: projectId }, query: periodQuery(period, engine) },
        { signal },
      ),
  });
}

/** Starts tracking a suggested brand as a competitor; answers the brand as saved. */
export function trackCompetitor(workspaceId: string, projectId: string, name: string): Promise<Project> {
  return v1Call(workspaceId, "trackCompetitor", { params: { id: projectId }, body: { name } });
}
