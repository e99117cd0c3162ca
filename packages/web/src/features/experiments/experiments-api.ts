import type { Change, ChangeCreate, ExperimentEffect } from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export type { Change, ChangeCreate, ExperimentEffect };
export type ChangeStatus = Change["status"];

/** The changes a brand's page reads at once: the list, and the markers of every time chart. */
const CHANGES_LIMIT = 100;

/** How each status reads, and what it means in a sentence. */
export const STATUS_LABEL: Record<ChangeStatus, string> = {
  collecting: "Collecting",
  result: "Result",
  inconclusive: "Inconclusive",
  not_called: "Not called",
};

export const STATUS_MEANING: Record<ChangeStatus, string> = {
  collecting: "The answers planned after the change are not all in yet: the figures so far are shown.",
  result: "The effect is statistically real (p < 0.05), with the answers planned in and no pre-trend.",
  inconclusive: "The answers are in, but the difference could be chance.",
  not_called: "The treated and control prompts were already drifting apart before the change.",
};

/**
 * A brand's changes live under "analytics": their figures are computed from the answers, so they
 * are refreshed with every figure when an analysis finishes.
 */
function changesKey(workspaceId: string, projectId: string, ...rest: string[]) {
  return keys.workspacePart(workspaceId, "analytics", projectId, "changes", ...rest);
}

/** The brand's changes, the most recently recorded first: one query for the list and the charts' markers. */
export function changesQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: changesKey(workspaceId, projectId, "list"),
    queryFn: ({ signal }) =>
      v1Call(workspaceId, "listChanges", { params: { id: projectId }, query: { limit: CHANGES_LIMIT } }, { signal }),
  });
}

export function changeQuery(workspaceId: string, projectId: string, changeId: string) {
  return queryOptions({
    queryKey: changesKey(workspaceId, projectId, "one", changeId),
    queryFn: ({ signal }) =>
      v1Call(workspaceId, "getChange", { params: { id: projectId, change_id: changeId } }, { signal }),
  });
}

/** Every query of the brand's changes, to refresh after one is recorded, scheduled or deleted. */
export function allChangesKey(workspaceId: string, projectId: string) {
  return changesKey(workspaceId, projectId);
}

export function createChange(workspaceId: string, projectId: string, body: ChangeCreate): Promise<Change> {
  return v1Call(workspaceId, "createChange", { params: { id: projectId }, body });
}

export function deleteChange(workspaceId: string, projectId: string, changeId: string) {
  return v1Call(workspaceId, "deleteChange", { params: { id: projectId, change_id: changeId } });
}

/** Creates the daily schedule asking the change's prompts until its result is ready (it costs credits). */
export function scheduleChangeSamples(
  workspaceId: string,
  projectId: string,
  changeId: string,
  body: { at: string; timezone: string },
): Promise<Change> {
  return v1Call(workspaceId, "scheduleChangeSamples", { params: { id: projectId, change_id: changeId }, body });
}
