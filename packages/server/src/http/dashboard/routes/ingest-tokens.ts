import {
  CreatedIngestTokenSchema,
  CreateIngestTokenSchema,
  IngestTokenItemParams,
  IngestTokenListSchema,
  IngestTokenParams,
  IngestTokenSchema,
} from "../../../services/traffic/ingest-schemas.ts";
import { createIngestToken, listIngestTokens, revokeIngestToken } from "../../../services/traffic/ingest-tokens.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

/**
 * A brand's ingest tokens, for its log drains and CDN pushes (issue 26): made and revoked in the
 * dashboard only, like API keys, by those who may manage keys.
 */
export function ingestTokenRoutes(): SessionRoute[] {
  return [
    defineRoute({
      operationId: "listIngestTokens",
      method: "GET",
      path: "/workspaces/:workspace/projects/:id/ingest-tokens",
      access: { kind: "member", permission: "read" },
      params: IngestTokenParams,
      success: { status: 200, schema: IngestTokenListSchema },
      handler: async ({ ctx, params }) => ({ data: await listIngestTokens(ctx, params.id) }),
    }),
    defineRoute({
      operationId: "createIngestToken",
      method: "POST",
      path: "/workspaces/:workspace/projects/:id/ingest-tokens",
      access: { kind: "member", permission: "manage_keys" },
      params: IngestTokenParams,
      body: CreateIngestTokenSchema,
      success: { status: 201, schema: CreatedIngestTokenSchema },
      handler: ({ ctx, params, body }) => createIngestToken(ctx, params.id, body),
    }),
    defineRoute({
      operationId: "revokeIngestToken",
      method: "DELETE",
      path: "/workspaces/:workspace/projects/:id/ingest-tokens/:token_id",
      access: { kind: "member", permission: "manage_keys" },
      params: IngestTokenItemParams,
      success: { status: 200, schema: IngestTokenSchema },
      handler: ({ ctx, params }) => revokeIngestToken(ctx, params.id, params.token_id),
    }),
  ];
}
