import { WorkspaceParams } from "../../../services/accounts/schemas.ts";
import { getBrandingSettings, updateBranding } from "../../../services/branding/branding.ts";
import { BrandingSettingsSchema, UpdateBrandingSchema } from "../../../services/branding/schemas.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

/**
 * Settings → Branding: every member sees how the workspace's reports, shared links and e-mails
 * are signed; admins and owners change it, as they rename the workspace (the same permission: the
 * name a client reads is the workspace's name or this one).
 */
export function brandingRoutes(): SessionRoute[] {
  return [
    defineRoute({
      operationId: "getBranding",
      method: "GET",
      path: "/workspaces/:workspace/branding",
      access: { kind: "member", permission: "read" },
      params: WorkspaceParams,
      success: { status: 200, schema: BrandingSettingsSchema },
      handler: ({ ctx }) => getBrandingSettings(ctx),
    }),
    defineRoute({
      operationId: "updateBranding",
      // PATCH, as the other settings: what is left out is kept (the logo need not be sent again).
      method: "PATCH",
      path: "/workspaces/:workspace/branding",
      access: { kind: "member", permission: "rename_workspace" },
      params: WorkspaceParams,
      body: UpdateBrandingSchema,
      success: { status: 200, schema: BrandingSettingsSchema },
      handler: ({ ctx, body }) => updateBranding(ctx, body),
    }),
  ];
}
