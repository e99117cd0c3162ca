import type {
  Operations,
  Traffic,
  TrafficAccess,
  TrafficGa4Connection,
  TrafficGa4Sync,
  TrafficPages,
} from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { appCall, v1Call } from "../../lib/api.ts";
import { isNotFound } from "../../lib/navigation.ts";
import type { Period } from "../../lib/period.ts";
import { keys } from "../../lib/queries.ts";

type TrafficBot = Traffic["bots"][number];
export type TrafficPage = TrafficPages["data"][number];
export type AccessDomain = TrafficAccess["domains"][number];
export type AccessBot = AccessDomain["bots"][number];
export type Verification = TrafficBot["verification"];
/** A bot's name as the traffic filter takes it. */
type BotName = NonNullable<Operations["getProjectTraffic"]["query"]["bot"]>;

/** Everything of a brand's traffic sits under one key: an upload or a sync refreshes it all. */
export function trafficKey(workspaceId: string, projectId: string, ...rest: string[]) {
  return keys.workspacePart(workspaceId, "traffic", projectId, ...rest);
}

/** The traffic API counts whole UTC days `[from, to)`: the period's first day, and the day after its last. */
export function trafficDays(period: Period): { from: string; to: string } {
  return { from: period.firstDay, to: period.to.slice(0, 10) };
}

/** One slice of the brand's traffic: all of it, or one bot's, one engine's, the verified hits or the others. */
export interface TrafficSlice {
  bot?: string;
  engine?: string;
  verified?: boolean;
}

export function trafficQuery(
  workspaceId: string,
  projectId: string,
  range: { from: string; to: string } | null,
  slice: TrafficSlice = {},
) {
  return queryOptions({
    queryKey: trafficKey(
      workspaceId,
      projectId,
      "summary",
      range?.from ?? "",
      range?.to ?? "",
      slice.bot ?? "",
      slice.engine ?? "",
      String(slice.verified ?? ""),
    ),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getProjectTraffic",
        {
          params: { id: projectId },
          query: {
            ...(range ?? {}),
            ...(slice.engine ? { engine: slice.engine } : {}),
            ...(slice.verified === undefined ? {} : { verified: slice.verified }),
            // The summary names only the bots the filter knows: its names are the filter's.
            ...(slice.bot ? { bot: slice.bot as BotName } : {}),
          },
        },
        { signal },
      ),
  });
}

export const PAGES_PER_PAGE = 20;

export function trafficPagesQuery(workspaceId: string, projectId: string, period: Period, page: number) {
  return queryOptions({
    queryKey: trafficKey(workspaceId, projectId, "pages", period.from, period.to, String(page)),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getProjectTrafficPages",
        { params: { id: projectId }, query: { from: period.from, to: period.to, limit: PAGES_PER_PAGE, page } },
        { signal },
      ),
  });
}

export function accessQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: trafficKey(workspaceId, projectId, "access"),
    queryFn: ({ signal }) => v1Call(workspaceId, "getProjectAccess", { params: { id: projectId } }, { signal }),
    // A brand's sites are read once a day by the worker; the first read of a new brand takes seconds.
    staleTime: 60_000,
  });
}

export function ingestTokensQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: trafficKey(workspaceId, projectId, "ingest-tokens"),
    queryFn: ({ signal }) =>
      appCall("listIngestTokens", { params: { workspace: workspaceId, id: projectId } }, { signal }),
  });
}

/** The answer holds the token: callers keep it in the state of the dialog that shows it, never in the cache. */
export function createIngestToken(workspaceId: string, projectId: string, name: string) {
  return appCall("createIngestToken", { params: { workspace: workspaceId, id: projectId }, body: { name } });
}

export function revokeIngestToken(workspaceId: string, projectId: string, tokenId: string) {
  return appCall("revokeIngestToken", { params: { workspace: workspaceId, id: projectId, token_id: tokenId } });
}

/** The brand's GA4 connection, or null when there is none (the API answers 404). */
export function ga4Query(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: trafficKey(workspaceId, projectId, "ga4"),
    queryFn: async ({ signal }): Promise<TrafficGa4Connection | null> => {
      try {
        return await v1Call(workspaceId, "getProjectTrafficGa4", { params: { id: projectId } }, { signal });
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
  });
}

export function connectGa4(
  workspaceId: string,
  projectId: string,
  body: { property_id: string; service_account_key: { client_email: string; private_key: string } },
): Promise<TrafficGa4Connection> {
  return v1Call(workspaceId, "connectProjectTrafficGa4", { params: { id: projectId }, body });
}

export function disconnectGa4(workspaceId: string, projectId: string) {
  return v1Call(workspaceId, "disconnectProjectTrafficGa4", { params: { id: projectId } });
}

export function syncGa4(workspaceId: string, projectId: string, days: number): Promise<TrafficGa4Sync> {
  return v1Call(workspaceId, "syncProjectTrafficGa4", { params: { id: projectId }, body: { days } });
}
