import { getDigestSubscription, setDigestSubscription } from "../../../services/notifications/digest.ts";
import { DigestChangeSchema, DigestParams, DigestSubscriptionSchema } from "../../../services/notifications/schemas.ts";
import { type DashboardRoute, workspaceRoute } from "../route.ts";

/** The signed-in member's weekly e-mail digest of one brand: any member may ask for it, viewers too. */
export function digestRoutes(): DashboardRoute[] {
  return [
    workspaceRoute({
      method: "GET",
      path: "/workspaces/:workspace/projects/:project_id/digest",
      permission: "read",
      params: DigestParams,
      success: { status: 200, schema: DigestSubscriptionSchema },
      handler: ({ ctx, user, params }) => getDigestSubscription(ctx, user.id, params.project_id),
    }),
    workspaceRoute({
      method: "PATCH",
      path: "/workspaces/:workspace/projects/:project_id/digest",
      permission: "read",
      params: DigestParams,
      body: DigestChangeSchema,
      success: { status: 200, schema: DigestSubscriptionSchema },
      handler: ({ ctx, user, params, body }) => setDigestSubscription(ctx, user.id, params.project_id, body.subscribed),
    }),
  ];
}
