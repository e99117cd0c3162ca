import {
  DeletedSchema,
  DeleteWorkspaceSchema,
  WorkspaceDetailsSchema,
  WorkspaceNameSchema,
  WorkspaceParams,
} from "../../../services/accounts/schemas.ts";
import { deleteWorkspace, renameWorkspace, workspaceDetails } from "../../../services/accounts/workspaces.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

export function workspaceRoutes(): SessionRoute[] {
  return [
    defineRoute({
      operationId: "getWorkspace",
      method: "GET",
      path: "/workspaces/:workspace",
      access: { kind: "member", permission: "read" },
      params: WorkspaceParams,
      success: { status: 200, schema: WorkspaceDetailsSchema },
      handler: ({ ctx, member }) => workspaceDetails(ctx, member.role),
    }),
    defineRoute({
      operationId: "renameWorkspace",
      method: "PATCH",
      path: "/workspaces/:workspace",
      access: { kind: "member", permission: "rename_workspace" },
      params: WorkspaceParams,
      body: WorkspaceNameSchema,
      success: { status: 200, schema: WorkspaceDetailsSchema },
      handler: async ({ ctx, member, body }) => {
        await renameWorkspace(ctx, body.name);
        return workspaceDetails(ctx, member.role);
      },
    }),
    defineRoute({
      operationId: "deleteWorkspace",
      method: "DELETE",
      path: "/workspaces/:workspace",
      access: { kind: "member", permission: "delete_workspace" },
      params: WorkspaceParams,
      body: DeleteWorkspaceSchema,
      success: { status: 200, schema: DeletedSchema },
      handler: async ({ ctx, body }) => {
        await deleteWorkspace(ctx, body.confirm_name);
        return { id: ctx.workspace.id, deleted: true as const };
      },
    }),
  ];
}
