import { ApiError } from "../../../errors/api-error.ts";
import { WorkspaceItemParams, WorkspaceParams } from "../../../services/accounts/schemas.ts";
import type { Deps } from "../../../services/context.ts";
import { listConnections, revokeConnection } from "../../../services/oauth/connections.ts";
import { OAuthFailure } from "../../../services/oauth/failure.ts";
import { decide, previewAuthorization, serverBase } from "../../../services/oauth/grants.ts";
import {
  AuthorizationDecisionSchema,
  AuthorizationPreviewSchema,
  AuthorizationQuery,
  AuthorizationRedirectSchema,
  ConnectedAppListSchema,
  ConnectedAppSchema,
} from "../../../services/oauth/schemas.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

/** An authorization request the consent page cannot go on with: said to the member, in the API's terms. */
async function shown<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OAuthFailure) throw new ApiError("VALIDATION_ERROR", error.description);
    throw error;
  }
}

/**
 * The member's half of OAuth sign-in for the MCP server (ADR 0038): the consent page's request and
 * decision, and the Settings card of the applications connected to a workspace.
 */
export function oauthRoutes(deps: Deps): SessionRoute[] {
  return [
    defineRoute({
      operationId: "previewAuthorization",
      method: "GET",
      path: "/oauth/authorization",
      access: { kind: "user" },
      query: AuthorizationQuery,
      success: { status: 200, schema: AuthorizationPreviewSchema },
      handler: ({ user, query }) => shown(() => previewAuthorization(deps, user, query)),
    }),
    defineRoute({
      operationId: "decideAuthorization",
      method: "POST",
      path: "/oauth/authorization",
      access: { kind: "user" },
      body: AuthorizationDecisionSchema,
      success: { status: 200, schema: AuthorizationRedirectSchema },
      handler: async ({ user, body, host }) => {
        const { decision, workspace_id, scopes, ...params } = body;
        const redirect = await shown(() =>
          decide(
            deps,
            user,
            params,
            { allow: decision === "allow", workspaceId: workspace_id, scopes },
            serverBase(deps, host),
          ),
        );
        return { redirect_to: redirect };
      },
    }),
    defineRoute({
      operationId: "listConnectedApps",
      method: "GET",
      path: "/workspaces/:workspace/connected-apps",
      access: { kind: "member", permission: "read" },
      params: WorkspaceParams,
      success: { status: 200, schema: ConnectedAppListSchema },
      handler: async ({ ctx }) => ({ data: await listConnections(ctx) }),
    }),
    defineRoute({
      operationId: "disconnectApp",
      method: "DELETE",
      path: "/workspaces/:workspace/connected-apps/:id",
      access: { kind: "member", permission: "read" },
      params: WorkspaceItemParams,
      success: { status: 200, schema: ConnectedAppSchema },
      handler: ({ ctx, member, params }) => revokeConnection(ctx, member, params.id),
    }),
  ];
}
