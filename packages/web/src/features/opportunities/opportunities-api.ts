import type { Opportunities } from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export type Opportunity = Opportunities["data"][number];
export type OpportunityKind = Opportunity["kind"];

/** How each kind reads in the dashboard, in the order the filter offers them. */
export const KIND_LABEL: Record<OpportunityKind, string> = {
  wrong_facts: "Wrong facts",
  negative_answers: "Warnings",
  visibility_drop: "Drop",
  competitors_preferred: "Competitors win",
  citation_gap: "Citation gap",
  search_gap: "Search gap",
  crawler_blocked: "Crawler blocked",
  crawler_errors: "Crawler errors",
};

export function opportunitiesQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    // Under "analytics": refreshed with every figure when an analysis finishes.
    queryKey: keys.workspacePart(workspaceId, "analytics", projectId, "opportunities"),
    queryFn: ({ signal }) =>
      v1Call(workspaceId, "listOpportunities", { params: { id: projectId }, query: { limit: 100 } }, { signal }),
  });
}
