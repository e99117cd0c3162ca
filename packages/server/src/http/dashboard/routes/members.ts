import { changeRole, listMembers, removeMember } from "../../../services/accounts/members.ts";
import {
  MemberListSchema,
  MemberParams,
  MemberSchema,
  RemovedSchema,
  RoleChangeSchema,
  WorkspaceParams,
} from "../../../services/accounts/schemas.ts";
import { type DashboardRoute, workspaceRoute } from "../route.ts";

export function memberRoutes(): DashboardRoute[] {
  return [
    workspaceRoute({
      method: "GET",
      path: "/workspaces/:workspace/members",
      permission: "read",
      params: WorkspaceParams,
      success: { status: 200, schema: MemberListSchema },
      handler: async ({ ctx }) => ({ data: await listMembers(ctx) }),
    }),
    workspaceRoute({
      method: "PATCH",
      path: "/workspaces/:workspace/members/:user_id",
      permission: "manage_members",
      params: MemberParams,
      body: RoleChangeSchema,
      success: { status: 200, schema: MemberSchema },
      handler: ({ ctx, member, params, body }) => changeRole(ctx, member, params.user_id, body.role),
    }),
    workspaceRoute({
      // Anyone may leave; removing someone else needs manage_members (checked by the service).
      method: "DELETE",
      path: "/workspaces/:workspace/members/:user_id",
      permission: "read",
      params: MemberParams,
      success: { status: 200, schema: RemovedSchema },
      handler: async ({ ctx, member, params }) => {
        await removeMember(ctx, member, params.user_id);
        return { user_id: params.user_id, removed: true as const };
      },
    }),
  ];
}
