import { getDigestSubscription, setDigestSubscription } from "../../../services/notifications/digest.ts";
import { DigestChangeSchema, DigestParams, DigestSubscriptionSchema } from "../../../services/notifications/schemas.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

/** The signed-in member's weekly e-mail digest of one brand: any member may ask for it, viewers too. */
export function digestRoutes(): SessionRoute[] {
  return [
    defineRoute({
      operationId: "getDigestSubscription",
      method: "GET",
      path: "/workspaces/:workspace/projects/:project_id/digest",
      access: { kind: "member", permission: "read" },
      params: DigestParams,
      success: { status: 200, schema: DigestSubscriptionSchema },
      handler: ({ ctx, user, params }) => getDigestSubscription(ctx, user.id, params.project_id),
    }),
    defineRoute({
      operationId: "setDigestSubscription",
      method: "PATCH",
      path: "/workspaces/:workspace/projects/:project_id/digest",
      access: { kind: "member", permission: "read" },
      params: DigestParams,
      body: DigestChangeSchema,
      success: { status: 200, schema: DigestSubscriptionSchema },
      handler: ({ ctx, user, params, body }) => setDigestSubscription(ctx, user.id, params.project_id, body.subscribed),
    }),
  ];
}
