import { changeRole, listMembers, removeMember } from "../../../services/accounts/members.ts";
import {
  MemberListSchema,
  MemberParams,
  MemberSchema,
  RemovedSchema,
  RoleChangeSchema,
  WorkspaceParams,
} from "../../../services/accounts/schemas.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

export function memberRoutes(): SessionRoute[] {
  return [
    defineRoute({
      operationId: "listMembers",
      method: "GET",
      path: "/workspaces/:workspace/members",
      access: { kind: "member", permission: "read" },
      params: WorkspaceParams,
      success: { status: 200, schema: MemberListSchema },
      handler: async ({ ctx }) => ({ data: await listMembers(ctx) }),
    }),
    defineRoute({
      operationId: "changeMemberRole",
      method: "PATCH",
      path: "/workspaces/:workspace/members/:user_id",
      access: { kind: "member", permission: "manage_members" },
      params: MemberParams,
      body: RoleChangeSchema,
      success: { status: 200, schema: MemberSchema },
      handler: ({ ctx, member, params, body }) => changeRole(ctx, member, params.user_id, body.role),
    }),
    defineRoute({
      operationId: "removeMember",
      // Anyone may leave; removing someone else needs manage_members (checked by the service).
      method: "DELETE",
      path: "/workspaces/:workspace/members/:user_id",
      access: { kind: "member", permission: "read" },
      params: MemberParams,
      success: { status: 200, schema: RemovedSchema },
      handler: async ({ ctx, member, params }) => {
        await removeMember(ctx, member, params.user_id);
        return { user_id: params.user_id, removed: true as const };
      },
    }),
  ];
}
