import { WorkspaceItemParams, WorkspaceParams } from "../../../services/accounts/schemas.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../../../services/api-keys/api-keys.ts";
import {
  ApiKeyListSchema,
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
} from "../../../services/api-keys/schemas.ts";
import { type DashboardRoute, workspaceRoute } from "../route.ts";

/** The spec's "Settings screen, API keys card": the only place customers create keys. */
export function apiKeyRoutes(): DashboardRoute[] {
  return [
    workspaceRoute({
      method: "GET",
      path: "/workspaces/:workspace/api-keys",
      permission: "read",
      params: WorkspaceParams,
      success: { status: 200, schema: ApiKeyListSchema },
      handler: async ({ ctx }) => ({ data: await listApiKeys(ctx, ctx.workspace.id) }),
    }),
    workspaceRoute({
      method: "POST",
      path: "/workspaces/:workspace/api-keys",
      permission: "manage_keys",
      params: WorkspaceParams,
      body: CreateApiKeySchema,
      success: { status: 201, schema: CreatedApiKeySchema },
      handler: ({ ctx, body }) => createApiKey(ctx, { workspaceId: ctx.workspace.id, ...body }),
    }),
    workspaceRoute({
      method: "DELETE",
      path: "/workspaces/:workspace/api-keys/:id",
      permission: "manage_keys",
      params: WorkspaceItemParams,
      success: { status: 200, schema: ApiKeySchema },
      handler: ({ ctx, params }) => revokeApiKey(ctx, { keyId: params.id, workspaceId: ctx.workspace.id }),
    }),
  ];
}
