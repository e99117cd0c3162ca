import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import type { Session } from "../../lib/types.ts";

export const sessionsQuery = queryOptions({
  queryKey: keys.sessions,
  queryFn: ({ signal }) => api<Session[]>("/auth/list-sessions", { signal }),
});

/** Other sessions end; this one stays. A wrong current password is an answer here, not an expired session. */
export function changePassword(currentPassword: string, newPassword: string): Promise<unknown> {
  return api("/auth/change-password", {
    method: "POST",
    body: { currentPassword, newPassword, revokeOtherSessions: true },
    on401: "throw",
  });
}

export function revokeAllSessions(): Promise<unknown> {
  return api("/auth/revoke-sessions", { method: "POST", on401: "throw" });
}
