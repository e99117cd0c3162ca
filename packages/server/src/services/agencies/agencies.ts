import type { Static } from "typebox";
import { ApiError, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { membership } from "../accounts/members.ts";
import { AGENCY_ROLES, type AgencyRole, atLeast, isAgencyRole } from "../accounts/roles.ts";
import type { Deps } from "../context.ts";
import { inTransaction } from "../context.ts";
import { billingPeriod } from "../usage/period.ts";
import { checkName } from "../workspaces/workspaces.ts";
import type { AgencySchema, AgencyStaffSchema } from "./schemas.ts";

export type AgencyView = Static<typeof AgencySchema>;
type StaffView = Static<typeof AgencyStaffSchema>;

/** An agency as a member of its staff reaches it: the agency and their role there. */
export interface AgencyAccess {
  id: string;
  name: string;
  role: AgencyRole;
}

/** What an agency's pool holds when none is given: the Agency plan's monthly credits. */
function defaultPool(deps: Deps): number {
  return deps.plans.agency.creditsPerMonth;
}

/** A new agency; `adminUserId` becomes its first admin. */
export async function createAgency(
  deps: Deps,
  input: { name: string; creditsPerMonth?: number; adminUserId?: string },
): Promise<{ id: string; name: string }> {
  const name = checkName(input.name);
  const credits = input.creditsPerMonth ?? defaultPool(deps);
  if (!Number.isInteger(credits) || credits < 0) {
    throw validationError([{ field: "credits_per_month", issue: "must be a whole number, 0 or more" }]);
  }
  const now = deps.clock.now().toISOString();
  const id = newId("agy");
  await inTransaction(deps, async (tx) => {
    await tx.db
      .insertInto("agencies")
      .values({
        id,
        name,
        credits_per_month: credits,
        billing_anchor: now.slice(0, 10),
        custom_host: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    if (input.adminUserId !== undefined) await putStaff(tx, id, input.adminUserId, "admin");
  });
  return { id, name };
}

async function putStaff(deps: Deps, agencyId: string, userId: string, role: AgencyRole): Promise<void> {
  const now = deps.clock.now().toISOString();
  await deps.db
    .insertInto("agency_members")
    .values({ agency_id: agencyId, user_id: userId, role, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(["agency_id", "user_id"]).doUpdateSet({ role, updated_at: now }))
    .execute();
}

/**
 * The agency as `userId` may reach it, with at least `least` as their role; an agency they are
 * not staff of does not exist, as far as they can tell (NOT_FOUND), and a role too small for the
 * action is FORBIDDEN.
 */
export async function agencyAccess(
  deps: Deps,
  agencyId: string,
  userId: string,
  least: AgencyRole = "viewer",
): Promise<AgencyAccess> {
  const row = await deps.db
    .selectFrom("agency_members as m")
    .innerJoin("agencies as a", "a.id", "m.agency_id")
    .select(["a.id", "a.name", "m.role"])
    .where("m.agency_id", "=", agencyId)
    .where("m.user_id", "=", userId)
    .executeTakeFirst();
  if (row === undefined || !isAgencyRole(row.role)) {
    throw new ApiError("NOT_FOUND", `No agency with id '${agencyId}' exists for you.`);
  }
  if (!atLeast(row.role, least)) {
    throw new ApiError("FORBIDDEN", `Your role at this agency (${row.role}) does not allow this; it needs ${least}.`);
  }
  return { id: row.id, name: row.name, role: row.role };
}

/** The agency with its pool's use this billing month, as its staff see it. */
export async function agencyView(deps: Deps, access: AgencyAccess): Promise<AgencyView> {
  const row = await deps.db.selectFrom("agencies").selectAll().where("id", "=", access.id).executeTakeFirstOrThrow();
  const period = billingPeriod(row.billing_anchor, deps.clock.now());
  const usage = await deps.db
    .selectFrom("agency_credit_usage")
    .select("used")
    .where("agency_id", "=", row.id)
    .where("period_start", "=", period.start)
    .executeTakeFirst();
  const clients = await deps.db
    .selectFrom("workspaces")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("agency_id", "=", row.id)
    .where("agency_kind", "=", "client")
    .executeTakeFirstOrThrow();
  const allowance = Number(row.credits_per_month);
  const used = Number(usage?.used ?? 0);
  return {
    id: row.id,
    name: row.name,
    role: access.role,
    credits: {
      allowance,
      used,
      remaining: Math.max(0, allowance - used),
      period_start: period.start,
      period_end: period.end,
    },
    custom_host: row.custom_host,
    clients: Number(clients.n),
    created_at: row.created_at,
  };
}

export async function agenciesOf(deps: Deps, userId: string): Promise<AgencyView[]> {
  const rows = await deps.db
    .selectFrom("agency_members as m")
    .innerJoin("agencies as a", "a.id", "m.agency_id")
    .select(["a.id", "a.name", "m.role"])
    .where("m.user_id", "=", userId)
    .orderBy("a.name")
    .execute();
  const views: AgencyView[] = [];
  for (const row of rows) {
    if (isAgencyRole(row.role)) views.push(await agencyView(deps, { id: row.id, name: row.name, role: row.role }));
  }
  return views;
}

/**
 * An agency started from the dashboard by the owner of a workspace on the Agency plan: they become
 * its admin, and the workspace its first client, its billing month then following the agency's.
 */
export async function startAgency(
  deps: Deps,
  userId: string,
  input: { name: string; workspace_id: string },
): Promise<AgencyView> {
  const role = await membership(deps, input.workspace_id, userId);
  if (role === null) throw new ApiError("NOT_FOUND", `No workspace with id '${input.workspace_id}' exists for you.`);
  if (role !== "owner") throw new ApiError("FORBIDDEN", "Only the workspace's owner can make it an agency's.");
  const workspace = await deps.db
    .selectFrom("workspaces")
    .select(["plan", "agency_id"])
    .where("id", "=", input.workspace_id)
    .executeTakeFirstOrThrow();
  if (workspace.plan !== "agency") {
    throw new ApiError("PLAN_REQUIRED", "Agencies are part of the Agency plan; this workspace is on another plan.");
  }
  if (workspace.agency_id !== null) {
    throw new ApiError("CONFLICT", "This workspace already belongs to an agency.");
  }
  const agency = await createAgency(deps, { name: input.name, adminUserId: userId });
  await attachClient(deps, agency.id, input.workspace_id);
  return agencyView(deps, { ...agency, role: "admin" });
}

/** Makes a workspace a client of the agency; its billing month follows the agency's from then on. */
export async function attachClient(deps: Deps, agencyId: string, workspaceId: string): Promise<void> {
  const agency = await deps.db
    .selectFrom("agencies")
    .select("billing_anchor")
    .where("id", "=", agencyId)
    .executeTakeFirst();
  if (agency === undefined) throw new ApiError("NOT_FOUND", `No agency with id '${agencyId}' exists.`);
  const updated = await deps.db
    .updateTable("workspaces")
    .set({
      agency_id: agencyId,
      agency_kind: "client",
      billing_anchor: agency.billing_anchor,
      updated_at: deps.clock.now().toISOString(),
    })
    .where("id", "=", workspaceId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw new ApiError("NOT_FOUND", `No workspace with id '${workspaceId}' exists.`);
  deps.keyCache.invalidate((key) => key.workspaceId === workspaceId);
}

export async function renameAgency(deps: Deps, access: AgencyAccess, name: string): Promise<AgencyView> {
  await deps.db
    .updateTable("agencies")
    .set({ name: checkName(name), updated_at: deps.clock.now().toISOString() })
    .where("id", "=", access.id)
    .execute();
  return agencyView(deps, access);
}

/** The operator's: the pool's size. */
export async function setAgencyCredits(deps: Deps, agencyId: string, credits: number): Promise<void> {
  if (!Number.isInteger(credits) || credits < 0) {
    throw validationError([{ field: "credits_per_month", issue: "must be a whole number, 0 or more" }]);
  }
  const updated = await deps.db
    .updateTable("agencies")
    .set({ credits_per_month: credits, updated_at: deps.clock.now().toISOString() })
    .where("id", "=", agencyId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw new ApiError("NOT_FOUND", `No agency with id '${agencyId}' exists.`);
}

export async function listStaff(deps: Deps, access: AgencyAccess): Promise<StaffView[]> {
  const rows = await deps.db
    .selectFrom("agency_members as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select(["m.user_id", "u.name", "u.email", "m.role", "m.created_at"])
    .where("m.agency_id", "=", access.id)
    .orderBy("m.created_at")
    .execute();
  return rows.map((row) => ({
    user_id: row.user_id,
    name: row.name,
    email: row.email,
    role: isAgencyRole(row.role) ? row.role : "viewer",
    joined_at: row.created_at,
  }));
}

function checkRole(role: string): AgencyRole {
  if (!isAgencyRole(role)) {
    throw validationError([{ field: "role", issue: `must be one of ${AGENCY_ROLES.join(", ")}` }]);
  }
  return role;
}

/**
 * Adds someone who has an account on this server to the agency's staff, or changes their role.
 * Someone without an account is invited to a client workspace first (docs/agencies.md).
 */
export async function addStaff(
  deps: Deps,
  access: AgencyAccess,
  input: { email: string; role: string },
): Promise<StaffView> {
  const role = checkRole(input.role);
  const email = input.email.trim().toLowerCase();
  const user = await deps.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (user === undefined) {
    throw validationError([
      {
        field: "email",
        issue: "no account on this server has this address; invite them to a client first, then add them here",
      },
    ]);
  }
  await putStaff(deps, access.id, user.id, role);
  return staffMember(deps, access, user.id);
}

async function staffMember(deps: Deps, access: AgencyAccess, userId: string): Promise<StaffView> {
  const found = (await listStaff(deps, access)).find((member) => member.user_id === userId);
  if (found === undefined) throw new ApiError("NOT_FOUND", `No staff member with id '${userId}' at this agency.`);
  return found;
}

/** Changes a role; the agency always keeps an admin. */
export async function changeStaffRole(
  deps: Deps,
  access: AgencyAccess,
  userId: string,
  role: string,
): Promise<StaffView> {
  const next = checkRole(role);
  return inTransaction(deps, async (tx) => {
    const member = await staffMember(tx, access, userId);
    if (member.role === "admin" && next !== "admin") await keepAnAdmin(tx, access.id);
    await putStaff(tx, access.id, userId, next);
    return { ...member, role: next };
  });
}

export async function removeStaff(deps: Deps, access: AgencyAccess, userId: string): Promise<void> {
  await inTransaction(deps, async (tx) => {
    const member = await staffMember(tx, access, userId);
    if (member.role === "admin") await keepAnAdmin(tx, access.id);
    await tx.db.deleteFrom("agency_members").where("agency_id", "=", access.id).where("user_id", "=", userId).execute();
  });
}

async function keepAnAdmin(deps: Deps, agencyId: string): Promise<void> {
  const admins = await deps.sql
    .lockRows(
      deps.db
        .selectFrom("agency_members")
        .select("user_id")
        .where("agency_id", "=", agencyId)
        .where("role", "=", "admin"),
    )
    .execute();
  if (admins.length <= 1) {
    throw new ApiError("CONFLICT", "This is the agency's last admin: make someone else an admin first.");
  }
}

/** The operator's: adds a user by e-mail at `role` (CLI). */
export async function addStaffByOperator(deps: Deps, agencyId: string, email: string, role: string): Promise<void> {
  const agency = await deps.db
    .selectFrom("agencies")
    .select(["id", "name"])
    .where("id", "=", agencyId)
    .executeTakeFirst();
  if (agency === undefined) throw new ApiError("NOT_FOUND", `No agency with id '${agencyId}' exists.`);
  await addStaff(deps, { id: agency.id, name: agency.name, role: "admin" }, { email, role });
}
