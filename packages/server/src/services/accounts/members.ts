import { ApiError, notFound, validationError } from "../../errors/api-error.ts";
import type { Deps, ServiceContext } from "../context.ts";
import { inTransaction } from "../context.ts";
import type { PlanName } from "../plan-names.ts";
import { can, clientRoleOf, isAgencyRole, isRole, ROLES, type Role } from "./roles.ts";

export interface MemberView {
  user_id: string;
  name: string;
  email: string;
  role: Role;
  joined_at: string;
}

/** A user's membership, as the dashboard's requests carry it. */
export interface Membership {
  userId: string;
  role: Role;
}

export interface UserWorkspace {
  id: string;
  name: string;
  plan: PlanName;
  role: Role;
  /** The agency that owns it, when one does. */
  agency: { id: string; name: string } | null;
}

function roleOf(value: string): Role {
  return isRole(value) ? value : "viewer";
}

/**
 * The user's role in the workspace, or null when they have none: their own membership, or else
 * the role their place at the agency that owns the workspace gives them there (accounts/roles.ts).
 */
export async function membership(deps: Deps, workspaceId: string, userId: string): Promise<Role | null> {
  const row = await deps.db
    .selectFrom("workspaces as w")
    .leftJoin("members as m", (join) => join.onRef("m.workspace_id", "=", "w.id").on("m.user_id", "=", userId))
    .leftJoin("agency_members as a", (join) =>
      join.onRef("a.agency_id", "=", "w.agency_id").on("a.user_id", "=", userId),
    )
    .select(["m.role as member_role", "a.role as agency_role"])
    .where("w.id", "=", workspaceId)
    .executeTakeFirst();
  if (row === undefined) return null;
  if (row.member_role !== null) return roleOf(row.member_role);
  if (row.agency_role !== null && isAgencyRole(row.agency_role)) return clientRoleOf(row.agency_role);
  return null;
}

/**
 * The workspaces the user works in: those they are a member of, and every client of the agencies
 * they are staff of (pitches are reached from the agency's page, not listed here). By name.
 */
export async function workspacesOf(deps: Deps, userId: string): Promise<UserWorkspace[]> {
  const direct = await deps.db
    .selectFrom("members")
    .innerJoin("workspaces", "workspaces.id", "members.workspace_id")
    .leftJoin("agencies", "agencies.id", "workspaces.agency_id")
    .select([
      "workspaces.id",
      "workspaces.name",
      "workspaces.plan",
      "members.role",
      "agencies.id as agency_id",
      "agencies.name as agency_name",
    ])
    .where("members.user_id", "=", userId)
    .execute();
  const viaAgency = await deps.db
    .selectFrom("agency_members")
    .innerJoin("workspaces", "workspaces.agency_id", "agency_members.agency_id")
    .innerJoin("agencies", "agencies.id", "workspaces.agency_id")
    .select([
      "workspaces.id",
      "workspaces.name",
      "workspaces.plan",
      "agency_members.role",
      "agencies.id as agency_id",
      "agencies.name as agency_name",
    ])
    .where("agency_members.user_id", "=", userId)
    .where("workspaces.agency_kind", "=", "client")
    .execute();
  const seen = new Set(direct.map((row) => row.id));
  const all = [
    ...direct.map((row) => ({ ...row, role: roleOf(row.role) })),
    ...viaAgency
      .filter((row) => !seen.has(row.id))
      .map((row) => ({ ...row, role: isAgencyRole(row.role) ? clientRoleOf(row.role) : ("viewer" as Role) })),
  ];
  return all
    .map((row) => ({
      id: row.id,
      name: row.name,
      plan: row.plan as PlanName,
      role: row.role,
      agency: row.agency_id === null || row.agency_name === null ? null : { id: row.agency_id, name: row.agency_name },
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

export async function listMembers(ctx: ServiceContext): Promise<MemberView[]> {
  const rows = await ctx.db
    .selectFrom("members")
    .innerJoin("users", "users.id", "members.user_id")
    .select(["members.user_id", "users.name", "users.email", "members.role", "members.created_at"])
    .where("members.workspace_id", "=", ctx.workspace.id)
    .orderBy("members.created_at")
    .execute();
  return rows.map((row) => ({
    user_id: row.user_id,
    name: row.name,
    email: row.email,
    role: roleOf(row.role),
    joined_at: row.created_at,
  }));
}

/** Adds a user to the workspace, or gives them `role` if they are in it already. */
export async function addMember(ctx: ServiceContext, userId: string, role: Role): Promise<void> {
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto("members")
    .values({ workspace_id: ctx.workspace.id, user_id: userId, role, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(["workspace_id", "user_id"]).doUpdateSet({ role, updated_at: now }))
    .execute();
}

/**
 * The workspace's owners, locked until the transaction ends: two owners demoting each other at once
 * take turns, and the second finds the other is the last one.
 */
async function lockedOwners(ctx: ServiceContext): Promise<string[]> {
  const rows = await ctx.sql
    .lockRows(
      ctx.db
        .selectFrom("members")
        .select("user_id")
        .where("workspace_id", "=", ctx.workspace.id)
        .where("role", "=", "owner"),
    )
    .execute();
  return rows.map((row) => row.user_id);
}

async function target(ctx: ServiceContext, userId: string): Promise<MemberView> {
  const found = (await listMembers(ctx)).find((member) => member.user_id === userId);
  if (found === undefined) throw notFound("member", userId);
  return found;
}

/**
 * Changes a member's role. Only owners make or unmake owners; the last owner stays one (a
 * workspace always has someone who can delete it and manage its owners).
 */
export async function changeRole(
  ctx: ServiceContext,
  actor: Membership,
  userId: string,
  role: string,
): Promise<MemberView> {
  if (!isRole(role)) throw validationError([{ field: "role", issue: `must be one of ${ROLES.join(", ")}` }]);
  return inTransaction(ctx, async (tx) => {
    const owners = await lockedOwners(tx);
    const member = await target(tx, userId);
    if ((member.role === "owner" || role === "owner") && !can(actor.role, "manage_owners")) {
      throw new ApiError("FORBIDDEN", "Only an owner can make someone an owner or change an owner's role.");
    }
    if (member.role === "owner" && role !== "owner" && owners.length === 1) {
      throw new ApiError("CONFLICT", "This is the workspace's last owner: make someone else an owner first.");
    }
    await tx.db
      .updateTable("members")
      .set({ role, updated_at: tx.clock.now().toISOString() })
      .where("workspace_id", "=", tx.workspace.id)
      .where("user_id", "=", userId)
      .execute();
    return { ...member, role };
  });
}

/** Removes a member (or lets one leave: `actor.userId === userId`); never the last owner. */
export async function removeMember(ctx: ServiceContext, actor: Membership, userId: string): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const owners = await lockedOwners(tx);
    const member = await target(tx, userId);
    const leaving = actor.userId === userId;
    if (!leaving && !can(actor.role, "manage_members")) {
      throw new ApiError("FORBIDDEN", "Only owners and admins can remove members.");
    }
    if (!leaving && member.role === "owner" && !can(actor.role, "manage_owners")) {
      throw new ApiError("FORBIDDEN", "Only an owner can remove an owner.");
    }
    if (member.role === "owner" && owners.length === 1) {
      throw new ApiError(
        "CONFLICT",
        leaving
          ? "You are the workspace's last owner: make someone else an owner before you leave, or delete the workspace."
          : "This is the workspace's last owner.",
      );
    }
    await tx.db
      .deleteFrom("members")
      .where("workspace_id", "=", tx.workspace.id)
      .where("user_id", "=", userId)
      .execute();
    // The applications they connected to the workspace (ADR 0038) go with them, for good: joining
    // again does not bring them back.
    await tx.db
      .updateTable("oauth_connections")
      .set({ revoked_at: tx.clock.now().toISOString() })
      .where("workspace_id", "=", tx.workspace.id)
      .where("user_id", "=", userId)
      .where("revoked_at", "is", null)
      .execute();
  });
  ctx.keyCache.invalidate((key) => key.workspaceId === ctx.workspace.id && key.id.startsWith("con_"));
}
