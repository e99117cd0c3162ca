import { queryOptions } from "@tanstack/react-query";
import { appCall } from "./api.ts";

/** Query keys: everything of one workspace sits under `["workspace", id]`, so one invalidation refreshes it. */
export const keys = {
  setup: ["setup"] as const,
  me: ["me"] as const,
  sessions: ["sessions"] as const,
  workspace: (id: string) => ["workspace", id] as const,
  workspacePart: (id: string, part: string, ...rest: string[]) => ["workspace", id, part, ...rest] as const,
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
