import { queryOptions } from "@tanstack/react-query";
import type { DashboardOperations, Pitch } from "../../generated/dashboard.ts";
import { appCall } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

/** Pitches (docs/agencies.md): a prospect's website, one analysis, a branded report opened by a link. */

export type { Pitch };
export type PitchCreated = DashboardOperations["createPitch"]["response"];
export type PitchSuggestion = NonNullable<PitchCreated["suggestion"]>;
export type PitchRun = DashboardOperations["runPitch"]["body"];

/** How often a running pitch is asked for its progress. */
const POLL_MS = 1500;

export function pitchesQuery(agencyId: string) {
  return queryOptions({
    queryKey: keys.agencyPart(agencyId, "pitches"),
    queryFn: ({ signal }) => appCall("listPitches", { params: { agency: agencyId } }, { signal }),
    // A pitch running in the list moves on by itself.
    refetchInterval: (query) =>
      query.state.data?.data.some((pitch) => pitch.status === "running") ? POLL_MS * 2 : false,
  });
}

export function pitchQuery(agencyId: string, pitchId: string) {
  return queryOptions({
    queryKey: keys.agencyPart(agencyId, "pitches", pitchId),
    queryFn: ({ signal }) => appCall("getPitch", { params: { agency: agencyId, pitch: pitchId } }, { signal }),
    refetchInterval: (query) => (query.state.data?.status === "running" ? POLL_MS : false),
  });
}

/**
 * What the website suggested when the pitch was made, kept for its page in this visit (the server
 * does not store suggestions: after a reload the prospect is filled in by hand).
 */
export function suggestionKey(agencyId: string, pitchId: string) {
  return keys.agencyPart(agencyId, "pitch-suggestion", pitchId);
}

export function createPitch(agencyId: string, website: string): Promise<PitchCreated> {
  return appCall("createPitch", { params: { agency: agencyId }, body: { website } });
}

export function runPitch(agencyId: string, pitchId: string, body: PitchRun): Promise<Pitch> {
  return appCall("runPitch", { params: { agency: agencyId, pitch: pitchId }, body });
}

export function sharePitch(agencyId: string, pitchId: string): Promise<Pitch> {
  return appCall("sharePitch", { params: { agency: agencyId, pitch: pitchId } });
}

export function convertPitch(
  agencyId: string,
  pitchId: string,
  body: DashboardOperations["convertPitch"]["body"],
): Promise<Pitch> {
  return appCall("convertPitch", { params: { agency: agencyId, pitch: pitchId }, body });
}

export function deletePitch(agencyId: string, pitchId: string): Promise<unknown> {
  return appCall("deletePitch", { params: { agency: agencyId, pitch: pitchId } });
}
