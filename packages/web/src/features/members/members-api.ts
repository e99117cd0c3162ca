import { queryOptions } from "@tanstack/react-query";
import { api, ws } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import type { CreatedInvitation, DataList, Invitation, Member, Role } from "../../lib/types.ts";

export function membersQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "members"),
    queryFn: ({ signal }) => api<DataList<Member>>(ws(workspaceId, "/members"), { signal }),
  });
}

export function invitationsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "invitations"),
    queryFn: ({ signal }) => api<DataList<Invitation>>(ws(workspaceId, "/invitations"), { signal }),
  });
}

export function changeRole(workspaceId: string, userId: string, role: Role): Promise<Member> {
  return api<Member>(ws(workspaceId, `/members/${encodeURIComponent(userId)}`), { method: "PATCH", body: { role } });
}

export function removeMember(workspaceId: string, userId: string): Promise<unknown> {
  return api(ws(workspaceId, `/members/${encodeURIComponent(userId)}`), { method: "DELETE" });
}

export function invite(workspaceId: string, email: string, role: Role): Promise<CreatedInvitation> {
  return api<CreatedInvitation>(ws(workspaceId, "/invitations"), { method: "POST", body: { email, role } });
}

export function revokeInvitation(workspaceId: string, invitationId: string): Promise<unknown> {
  return api(ws(workspaceId, `/invitations/${encodeURIComponent(invitationId)}`), { method: "DELETE" });
}
