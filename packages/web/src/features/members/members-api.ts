import { queryOptions } from "@tanstack/react-query";
import { appCall } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import type { CreatedInvitation, Member, Role } from "../../lib/types.ts";

export function membersQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "members"),
    queryFn: ({ signal }) => appCall("listMembers", { params: { workspace: workspaceId } }, { signal }),
  });
}

export function invitationsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "invitations"),
    queryFn: ({ signal }) => appCall("listInvitations", { params: { workspace: workspaceId } }, { signal }),
  });
}

export function changeRole(workspaceId: string, userId: string, role: Role): Promise<Member> {
  return appCall("changeMemberRole", { params: { workspace: workspaceId, user_id: userId }, body: { role } });
}

export function removeMember(workspaceId: string, userId: string): Promise<unknown> {
  return appCall("removeMember", { params: { workspace: workspaceId, user_id: userId } });
}

export function invite(workspaceId: string, email: string, role: Role): Promise<CreatedInvitation> {
  return appCall("createInvitation", { params: { workspace: workspaceId }, body: { email, role } });
}

export function revokeInvitation(workspaceId: string, invitationId: string): Promise<unknown> {
  return appCall("revokeInvitation", { params: { workspace: workspaceId, id: invitationId } });
}
