import { WorkspaceItemParams, WorkspaceParams } from "../../../services/accounts/schemas.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../../../services/api-keys/api-keys.ts";
import {
  ApiKeyListSchema,
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
} from "../../../services/api-keys/schemas.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

/** The spec's "Settings screen, API keys card": the only place customers create keys. */
export function apiKeyRoutes(): SessionRoute[] {
  return [
    defineRoute({
      operationId: "listApiKeys",
      method: "GET",
      path: "/workspaces/:workspace/api-keys",
      access: { kind: "member", permission: "read" },
      params: WorkspaceParams,
      success: { status: 200, schema: ApiKeyListSchema },
      handler: async ({ ctx }) => ({ data: await listApiKeys(ctx, ctx.workspace.id) }),
    }),
    defineRoute({
      operationId: "createApiKey",
      method: "POST",
      path: "/workspaces/:workspace/api-keys",
      access: { kind: "member", permission: "manage_keys" },
      params: WorkspaceParams,
      body: CreateApiKeySchema,
      success: { status: 201, schema: CreatedApiKeySchema },
      handler: ({ ctx, body }) => createApiKey(ctx, { workspaceId: ctx.workspace.id, ...body }),
    }),
    defineRoute({
      operationId: "revokeApiKey",
      method: "DELETE",
      path: "/workspaces/:workspace/api-keys/:id",
      access: { kind: "member", permission: "manage_keys" },
      params: WorkspaceItemParams,
      success: { status: 200, schema: ApiKeySchema },
      handler: ({ ctx, params }) => revokeApiKey(ctx, { keyId: params.id, workspaceId: ctx.workspace.id }),
    }),
  ];
}
