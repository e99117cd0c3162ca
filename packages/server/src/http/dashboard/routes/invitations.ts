import {
  acceptInvitation,
  createInvitation,
  listInvitations,
  previewInvitation,
  revokeInvitation,
} from "../../../services/accounts/invitations.ts";
import {
  AcceptedSchema,
  CreatedInvitationSchema,
  InvitationListSchema,
  InvitationPreviewSchema,
  InviteSchema,
  RevokedInvitationSchema,
  TokenParams,
  WorkspaceItemParams,
  WorkspaceParams,
} from "../../../services/accounts/schemas.ts";
import type { Deps } from "../../../services/context.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

export function invitationRoutes(deps: Deps): SessionRoute[] {
  return [
    defineRoute({
      operationId: "listInvitations",
      method: "GET",
      path: "/workspaces/:workspace/invitations",
      access: { kind: "member", permission: "manage_members" },
      params: WorkspaceParams,
      success: { status: 200, schema: InvitationListSchema },
      handler: async ({ ctx }) => ({ data: await listInvitations(ctx) }),
    }),
    defineRoute({
      operationId: "createInvitation",
      method: "POST",
      path: "/workspaces/:workspace/invitations",
      access: { kind: "member", permission: "manage_members" },
      params: WorkspaceParams,
      body: InviteSchema,
      success: { status: 201, schema: CreatedInvitationSchema },
      handler: ({ ctx, member, user, body }) => createInvitation(ctx, { ...member, name: user.name }, body),
    }),
    defineRoute({
      operationId: "revokeInvitation",
      method: "DELETE",
      path: "/workspaces/:workspace/invitations/:id",
      access: { kind: "member", permission: "manage_members" },
      params: WorkspaceItemParams,
      success: { status: 200, schema: RevokedInvitationSchema },
      handler: async ({ ctx, params }) => {
        await revokeInvitation(ctx, params.id);
        return { id: params.id, revoked: true as const };
      },
    }),
    defineRoute({
      operationId: "previewInvitation",
      method: "GET",
      access: { kind: "public" },
      path: "/invitations/:token",
      params: TokenParams,
      success: { status: 200, schema: InvitationPreviewSchema },
      handler: ({ params }) => previewInvitation(deps, params.token),
    }),
    defineRoute({
      operationId: "acceptInvitation",
      method: "POST",
      access: { kind: "user" },
      path: "/invitations/:token/accept",
      params: TokenParams,
      success: { status: 200, schema: AcceptedSchema },
      handler: ({ user, params }) => acceptInvitation(deps, user, params.token),
    }),
  ];
}
