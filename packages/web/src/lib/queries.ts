import { queryOptions } from "@tanstack/react-query";
import { appCall } from "./api.ts";

/** Query keys: everything of one workspace sits under `["workspace", id]`, so one invalidation refreshes it. */
export const keys = {
  setup: ["setup"] as const,
  me: ["me"] as const,
  sessions: ["sessions"] as const,
  workspace: (id: string) => ["workspace", id] as const,
  workspacePart: (id: string, part: string, ...rest: string[]) => ["workspace", id, part, ...rest] as const,
  host: ["host"] as const,
  /** What the consent page shows for one authorization request. */
  authorization: (params: Record<string, string | undefined>) => ["authorization", params] as const,
  /** Everything of one agency sits under `["agency", id]`; the list of them is `["agency"]`. */
  agencies: ["agency"] as const,
  agency: (id: string) => ["agency", id] as const,
  agencyPart: (id: string, part: string, ...rest: string[]) => ["agency", id, part, ...rest] as const,
};

export const setupQuery = queryOptions({
  queryKey: keys.setup,
  queryFn: ({ signal }) => appCall("getSetup", {}, { signal, on401: "throw" }),
  staleTime: 60_000,
});

export const meQuery = queryOptions({
  queryKey: keys.me,
  // A 401 here is handled by whoever asks (the app layout sends the user to sign in; the invitation page offers it).
  queryFn: ({ signal }) => appCall("getMe", {}, { signal, on401: "throw" }),
});

export function workspaceQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspace(workspaceId),
    queryFn: ({ signal }) => appCall("getWorkspace", { params: { workspace: workspaceId } }, { signal }),
  });
}

/**
 * How this host presents itself: an agency's name, logo and colour on its custom host (the sign-in
 * page and the header show them instead of Sightline's), nothing elsewhere. Asked once per visit.
 */
export const hostQuery = queryOptions({
  queryKey: keys.host,
  queryFn: ({ signal }) => appCall("getHost", {}, { signal, on401: "throw" }),
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});
