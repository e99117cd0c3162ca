import { validationError } from "../../errors/api-error.ts";
import type { Deps, ServiceContext } from "../context.ts";
import { inTransaction } from "../context.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { checkName, createWorkspace, type WorkspaceView, workspaceContext } from "../workspaces/workspaces.ts";
import { addMember } from "./members.ts";
import type { Role } from "./roles.ts";

/** A workspace as its members see it in the dashboard: its plan's limits and their role. */
export interface WorkspaceDetails {
  id: string;
  name: string;
  plan: string;
  role: Role;
  api_access: boolean;
  requests_per_minute: number | null;
  credits_per_month: number;
  engines: string[];
  /** The agency the workspace is a client of: its credits come from the agency's pool, within `credit_cap`. */
  agency: { id: string; name: string; credit_cap: number | null } | null;
  created_at: string;
}

export async function workspaceDetails(ctx: ServiceContext, role: Role): Promise<WorkspaceDetails> {
  const row = await ctx.db
    .selectFrom("workspaces")
    .leftJoin("agencies", "agencies.id", "workspaces.agency_id")
    .select([
      "workspaces.id",
      "workspaces.name",
      "workspaces.credit_cap",
      "workspaces.created_at",
      "agencies.id as agency_id",
      "agencies.name as agency_name",
    ])
    .where("workspaces.id", "=", ctx.workspace.id)
    .executeTakeFirstOrThrow();
  const plan = ctx.workspace.plan;
  return {
    id: row.id,
    name: row.name,
    plan: plan.name,
    role,
    api_access: plan.apiAccess,
    requests_per_minute: plan.requestsPerMinute,
    credits_per_month: plan.creditsPerMonth,
    engines: (await workspaceEngines(ctx))
      .names()
      .filter((engine) => plan.allEngines || plan.engines.includes(engine as never)),
    agency:
      row.agency_id === null || row.agency_name === null
        ? null
        : {
            id: row.agency_id,
            name: row.agency_name,
            credit_cap: row.credit_cap === null ? null : Number(row.credit_cap),
          },
    created_at: row.created_at,
  };
}

/** A new workspace on the sign-up plan, owned by the user who makes it (in one transaction). */
export async function createWorkspaceFor(deps: Deps, userId: string, name: string): Promise<WorkspaceView> {
  return inTransaction(deps, async (tx) => {
    const workspace = await createWorkspace(tx, { name, plan: tx.signup.plan });
    const ctx = await workspaceContext(tx, workspace.id, { type: "user", id: userId });
    await addMember(ctx, userId, "owner");
    return workspace;
  });
}

export async function renameWorkspace(ctx: ServiceContext, name: string): Promise<void> {
  const trimmed = checkName(name);
  await ctx.db
    .updateTable("workspaces")
    .set({ name: trimmed, updated_at: ctx.clock.now().toISOString() })
    .where("id", "=", ctx.workspace.id)
    .execute();
}

/**
 * Deletes the workspace and everything it holds, in one transaction, once `confirmName` is its
 * name. Its API keys stop working at once in this process (their cache is emptied) and within the
 * cache's seconds in others, whose next lookup finds no key.
 */
export async function deleteWorkspace(ctx: ServiceContext, confirmName: string): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const id = tx.workspace.id;
    const row = await tx.db.selectFrom("workspaces").select("name").where("id", "=", id).executeTakeFirstOrThrow();
    if (confirmName !== row.name) {
      throw validationError([{ field: "confirm_name", issue: "must be the workspace's name, exactly" }]);
    }
    const deliveries = tx.db.selectFrom("webhook_deliveries").select("id").where("workspace_id", "=", id);
    await tx.db.deleteFrom("webhook_attempts").where("delivery_id", "in", deliveries).execute();
    const schedules = tx.db.selectFrom("monitoring_schedules").select("id").where("workspace_id", "=", id);
    await tx.db.deleteFrom("alert_states").where("schedule_id", "in", schedules).execute();
    // Children before parents; every table holding a workspace's rows.
    for (const table of [
      "result_rollups",
      "engine_rollups",
      "source_rollups",
      "source_totals",
      "webhook_deliveries",
      "events",
      "results",
      "alerts",
      "monitoring_runs",
      "report_shares",
      "reports",
      "opportunity_sets",
      "engine_batches",
      "analyses",
      "monitoring_schedules",
      "remeasures",
      "projects",
      "judge_verdicts",
      "workspace_engines",
      "resource_versions",
      "credit_entries",
      "credit_usage",
      "cost_usage",
      "usage_requests",
      "webhook_endpoints",
      "api_keys",
      "oauth_codes",
      "oauth_connections",
      "invitations",
      "members",
      "pitches",
    ] as const) {
      await tx.db.deleteFrom(table).where("workspace_id", "=", id).execute();
    }
    await tx.db.deleteFrom("workspaces").where("id", "=", id).execute();
  });
  ctx.keyCache.invalidate((key) => key.workspaceId === ctx.workspace.id);
}
