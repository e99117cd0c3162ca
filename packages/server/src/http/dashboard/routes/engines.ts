import Type from "typebox";
import { Nullable } from "../../../lib/schema.ts";
import { can } from "../../../services/accounts/roles.ts";
import { WorkspaceParams } from "../../../services/accounts/schemas.ts";
import { createEngine, removeEngine, testEngine, updateEngine } from "../../../services/engine-settings/connections.ts";
import {
  CreateEngineSchema,
  EngineParams,
  EngineStatusListSchema,
  EngineStatusSchema,
  EngineTestSchema,
  UpdateEngineSchema,
} from "../../../services/engine-settings/schemas.ts";
import { listEngineStatuses } from "../../../services/engine-settings/status.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

/**
 * Settings → Engines: every member sees which engines can answer and why the others cannot (the
 * engine pickers of the brand form, the Run dialog and schedules read it too); admins and owners
 * connect keys, models and OpenAI-compatible endpoints, and test them. No route returns a key, and
 * only admins and owners see a key's last four characters.
 */
export function engineRoutes(): SessionRoute[] {
  return [
    defineRoute({
      operationId: "listEngineStatuses",
      method: "GET",
      path: "/workspaces/:workspace/engines",
      access: { kind: "member", permission: "read" },
      params: WorkspaceParams,
      success: { status: 200, schema: EngineStatusListSchema },
      // Viewers and members see which engines can answer, not the last characters of the keys.
      handler: ({ ctx, member }) => listEngineStatuses(ctx, { keyHints: can(member.role, "manage_engines") }),
    }),
    defineRoute({
      operationId: "createEngine",
      method: "POST",
      path: "/workspaces/:workspace/engines",
      access: { kind: "member", permission: "manage_engines" },
      params: WorkspaceParams,
      body: CreateEngineSchema,
      success: { status: 201, schema: EngineStatusSchema },
      handler: ({ ctx, body }) => createEngine(ctx, body),
    }),
    defineRoute({
      operationId: "updateEngine",
      method: "PATCH",
      path: "/workspaces/:workspace/engines/:engine",
      access: { kind: "member", permission: "manage_engines" },
      params: EngineParams,
      body: UpdateEngineSchema,
      success: { status: 200, schema: EngineStatusSchema },
      handler: ({ ctx, params, body }) => updateEngine(ctx, params.engine, body),
    }),
    defineRoute({
      operationId: "removeEngine",
      method: "DELETE",
      path: "/workspaces/:workspace/engines/:engine",
      access: { kind: "member", permission: "manage_engines" },
      params: EngineParams,
      success: {
        status: 200,
        schema: Type.Object({ engine: Nullable(EngineStatusSchema) }, { additionalProperties: false }),
      },
      handler: async ({ ctx, params }) => ({ engine: await removeEngine(ctx, params.engine) }),
    }),
    defineRoute({
      operationId: "testEngine",
      method: "POST",
      path: "/workspaces/:workspace/engines/:engine/test",
      access: { kind: "member", permission: "manage_engines" },
      params: EngineParams,
      success: { status: 200, schema: EngineTestSchema },
      handler: ({ ctx, params }) => testEngine(ctx, params.engine),
    }),
  ];
}
