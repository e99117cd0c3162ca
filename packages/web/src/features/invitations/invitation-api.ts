import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import type { AcceptedInvitation, InvitationPreview } from "../../lib/types.ts";

export function invitationQuery(token: string) {
  return queryOptions({
    queryKey: ["invitation", token] as const,
    queryFn: ({ signal }) =>
      api<InvitationPreview>(`/invitations/${encodeURIComponent(token)}`, { signal, on401: "throw" }),
    retry: false,
  });
}

export function acceptInvitation(token: string): Promise<AcceptedInvitation> {
  return api<AcceptedInvitation>(`/invitations/${encodeURIComponent(token)}/accept`, {
    method: "POST",
    on401: "throw",
  });
}
