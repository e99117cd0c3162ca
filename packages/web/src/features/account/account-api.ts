import { queryOptions } from "@tanstack/react-query";
import { appCall } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export const sessionsQuery = queryOptions({
  queryKey: keys.sessions,
  queryFn: ({ signal }) => appCall("listSessions", {}, { signal }),
});

/** Other sessions end; this one stays. A wrong current password is an answer here, not an expired session. */
export function changePassword(currentPassword: string, newPassword: string): Promise<unknown> {
  return appCall("changePassword", { body: { currentPassword, newPassword } }, { on401: "throw" });
}

export function revokeAllSessions(): Promise<unknown> {
  return appCall("revokeSessions", {}, { on401: "throw" });
}
