import type { WorkspacesTable } from "../../db/tables.ts";
import { notFound, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import type { Deps, ServiceContext } from "../context.ts";
import { PLAN_NAMES, type PlanName } from "../plan-names.ts";
import { isPlanName } from "../plans/catalog.ts";

export interface WorkspaceView {
  id: string;
  object: "workspace";
  name: string;
  plan: PlanName;
  /** The day billing periods are anchored on (YYYY-MM-DD, UTC). */
  billing_anchor: string;
  created_at: string;
  updated_at: string;
}

function toView(row: WorkspacesTable): WorkspaceView {
  return {
    id: row.id,
    object: "workspace",
    name: row.name,
    plan: row.plan as PlanName,
    billing_anchor: row.billing_anchor,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A workspace's (or an agency's) name, trimmed: 1 to 100 characters, or VALIDATION_ERROR on `name`. */
export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 100) {
    throw validationError([{ field: "name", issue: "must be 1 to 100 characters" }]);
  }
  return trimmed;
}

function checkPlan(plan: string): PlanName {
  if (!isPlanName(plan)) {
    throw validationError([{ field: "plan", issue: `must be one of ${PLAN_NAMES.join(", ")}` }]);
  }
  return plan;
}

/** A workspace an agency owns: its kind, and the billing month it follows (the agency's). */
export interface AgencyOwner {
  agencyId: string;
  kind: "client" | "pitch";
  billingAnchor: string;
  creditCap?: number | null;
}

export async function createWorkspace(
  deps: Deps,
  input: { name: string; plan: string; agency?: AgencyOwner },
): Promise<WorkspaceView> {
  const name = checkName(input.name);
  const plan = checkPlan(input.plan);
  const now = deps.clock.now().toISOString();
  const row: WorkspacesTable = {
    id: newId("ws"),
    name,
    plan,
    billing_anchor: input.agency?.billingAnchor ?? now.slice(0, 10),
    agency_id: input.agency?.agencyId ?? null,
    agency_kind: input.agency?.kind ?? null,
    credit_cap: input.agency?.creditCap ?? null,
    created_at: now,
    updated_at: now,
  };
  await deps.db.insertInto("workspaces").values(row).execute();
  return toView(row);
}

async function getWorkspace(deps: Deps, workspaceId: string): Promise<WorkspaceView> {
  const row = await deps.db.selectFrom("workspaces").selectAll().where("id", "=", workspaceId).executeTakeFirst();
  if (row === undefined) throw notFound("workspace", workspaceId);
  return toView(row);
}

export async function listWorkspaces(deps: Deps): Promise<WorkspaceView[]> {
  const rows = await deps.db.selectFrom("workspaces").selectAll().orderBy("created_at", "desc").execute();
  return rows.map(toView);
}

/** Changes the plan; keys verified by this process see it at once, other processes within seconds. */
export async function setWorkspacePlan(
  deps: Deps,
  input: { workspaceId: string; plan: string },
): Promise<WorkspaceView> {
  const plan = checkPlan(input.plan);
  const now = deps.clock.now().toISOString();
  const result = await deps.db
    .updateTable("workspaces")
    .set({ plan, updated_at: now })
    .where("id", "=", input.workspaceId)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound("workspace", input.workspaceId);
  deps.keyCache.invalidate((key) => key.workspaceId === input.workspaceId);
  return getWorkspace(deps, input.workspaceId);
}

/** A service context acting for the operator on one workspace (CLI, seeding, the worker). */
export async function workspaceContext(
  deps: Deps,
  workspaceId: string,
  actor: ServiceContext["actor"] = { type: "operator" },
): Promise<ServiceContext> {
  const workspace = await getWorkspace(deps, workspaceId);
  return {
    ...deps,
    workspace: { id: workspace.id, plan: deps.plans[workspace.plan], billingAnchor: workspace.billing_anchor },
    actor,
  };
}
