import type {
  CompetitorLeaderboard,
  CompetitorSuggestions,
  Project,
  ProjectMetrics,
  ProjectSearches,
  ProjectSources,
  PromptMetrics,
} from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { api, v1 } from "../../lib/api.ts";
import { type Period, periodQuery } from "../../lib/period.ts";
import { keys } from "../../lib/queries.ts";

/** The analytics reads of one brand (docs/analytics-api.md), each for a period (with its tag) and an engine. */

function path(projectId: string, part: string, period: Period, engine: string | undefined, extra = {}) {
  return `/projects/${encodeURIComponent(projectId)}/${part}?${periodQuery(period, engine, extra)}`;
}

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
      api<ProjectMetrics>(v1(workspaceId, path(projectId, "metrics", period, engine, { interval: period.interval })), {
        signal,
      }),
  });
}

export function promptMetricsQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: key(workspaceId, projectId, "prompts", period, engine),
    queryFn: ({ signal }) =>
      api<PromptMetrics>(v1(workspaceId, path(projectId, "prompts/metrics", period, engine)), { signal }),
  });
}

export function sourcesQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: key(workspaceId, projectId, "sources", period, engine),
    queryFn: ({ signal }) =>
      api<ProjectSources>(v1(workspaceId, path(projectId, "sources", period, engine, { limit: "50" })), { signal }),
  });
}

export function competitorsQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: key(workspaceId, projectId, "competitors", period, engine),
    queryFn: ({ signal }) =>
      api<CompetitorLeaderboard>(v1(workspaceId, path(projectId, "competitors", period, engine)), { signal }),
  });
}

export function searchesQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: key(workspaceId, projectId, "searches", period, engine),
    queryFn: ({ signal }) =>
      api<ProjectSearches>(v1(workspaceId, path(projectId, "searches", period, engine, { limit: "100" })), { signal }),
  });
}

export function suggestionsQuery(workspaceId: string, projectId: string, period: Period, engine?: string) {
  return queryOptions({
    queryKey: key(workspaceId, projectId, "competitor-suggestions", period, engine),
    queryFn: ({ signal }) =>
      api<CompetitorSuggestions>(v1(workspaceId, path(projectId, "competitor-suggestions", period, engine)), {
        signal,
      }),
  });
}

/** Starts tracking a suggested brand as a competitor; answers the brand as saved. */
export function trackCompetitor(workspaceId: string, projectId: string, name: string): Promise<Project> {
  return api<Project>(v1(workspaceId, `/projects/${encodeURIComponent(projectId)}/competitor-suggestions/track`), {
    method: "POST",
    body: { name },
  });
}
