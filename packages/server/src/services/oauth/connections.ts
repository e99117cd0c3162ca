import { ApiError, notFound } from "../../errors/api-error.ts";
import { type Membership, membership } from "../accounts/members.ts";
import { can, scopesOf } from "../accounts/roles.ts";
import type { VerifiedKey } from "../api-keys/cache.ts";
import { isScope, type Scope } from "../api-keys/scopes.ts";
import type { Deps, ServiceContext } from "../context.ts";
import { isPlanName } from "../plans/catalog.ts";
import { revokeConnectionRow } from "./grants.ts";
import { hashSecret, isSecretOf } from "./tokens.ts";

const refused = (message: string) => new ApiError("INVALID_API_KEY", message);

/**
 * The connection an access token belongs to, as the key it stands for at `/mcp`: its workspace,
 * and its scopes as far as the member's role there still allows them (a member made a viewer
 * keeps only `read`; one who left keeps nothing and is refused). Cached like keys, for a few
 * seconds; its expiry is checked by the caller on every use.
 */
export async function verifyAccessToken(deps: Deps, token: string): Promise<VerifiedKey> {
  if (!isSecretOf("access", token)) throw refused("The access token is not one this server issued.");
  const hash = hashSecret(token);
  const cached = deps.keyCache.get(hash);
  if (cached !== undefined) return cached;
  const row = await deps.db
    .selectFrom("oauth_connections as c")
    .innerJoin("workspaces as w", "w.id", "c.workspace_id")
    .select([
      "c.id",
      "c.workspace_id",
      "c.user_id",
      "c.scopes",
      "c.access_expires_at",
      "c.revoked_at",
      "w.plan",
      "w.billing_anchor",
    ])
    .where("c.access_hash", "=", hash)
    .executeTakeFirst();
  if (row === undefined)
    throw refused(
      "The access token is not valid: it was replaced by a refresh, or never issued. Refresh or sign in again.",
    );
  if (row.revoked_at !== null) throw refused(`This connection was revoked on ${row.revoked_at}; sign in again.`);
  if (!isPlanName(row.plan)) throw new ApiError("PLAN_REQUIRED", `Unknown plan '${row.plan}'.`);
  const role = await membership(deps, row.workspace_id, row.user_id);
  const allowed: Scope[] = role === null ? [] : scopesOf(role);
  const scopes = (JSON.parse(row.scopes) as string[]).filter(isScope).filter((scope) => allowed.includes(scope));
  if (scopes.length === 0)
    throw refused("The member who connected this application no longer has access to the workspace.");
  const key: VerifiedKey = {
    id: row.id,
    workspaceId: row.workspace_id,
    scopes,
    expiresAt: row.access_expires_at,
    plan: row.plan,
    billingAnchor: row.billing_anchor,
  };
  deps.keyCache.set(hash, key);
  return key;
}

export interface ConnectionView {
  id: string;
  object: "connected_app";
  client: { id: string; name: string; uri: string | null };
  user: { id: string; name: string; email: string };
  /** What it may do now: what was granted, as far as the member's role still allows. */
  scopes: Scope[];
  /** `no_access`: the member who connected it left the workspace (or kept no granted scope). */
  status: "active" | "revoked" | "expired" | "no_access";
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The connections of the workspace, with their applications and members, newest first. */
function connectionRows(ctx: ServiceContext) {
  return ctx.db
    .selectFrom("oauth_connections as c")
    .innerJoin("oauth_clients as a", "a.id", "c.client_id")
    .innerJoin("users as u", "u.id", "c.user_id")
    .select([
      "c.id",
      "c.scopes",
      "c.created_at",
      "c.last_used_at",
      "c.revoked_at",
      "c.refresh_expires_at",
      "a.id as client_id",
      "a.name as client_name",
      "a.client_uri",
      "u.id as user_id",
      "u.name as user_name",
      "u.email as user_email",
    ])
    .where("c.workspace_id", "=", ctx.workspace.id)
    .orderBy("c.created_at", "desc")
    .orderBy("c.id", "desc");
}

type ConnectionRow = Awaited<ReturnType<ReturnType<typeof connectionRows>["executeTakeFirstOrThrow"]>>;

/** What each member who connected an application may grant now, by user id (none: not a member). */
async function allowedNow(ctx: ServiceContext, rows: ConnectionRow[]): Promise<Map<string, Scope[]>> {
  const allowed = new Map<string, Scope[]>();
  for (const userId of new Set(rows.map((row) => row.user_id))) {
    const role = await membership(ctx, ctx.workspace.id, userId);
    allowed.set(userId, role === null ? [] : scopesOf(role));
  }
  return allowed;
}

function toView(row: ConnectionRow, now: number, allowed: Map<string, Scope[]>): ConnectionView {
  const mayGrant = allowed.get(row.user_id) ?? [];
  const scopes = (JSON.parse(row.scopes) as string[]).filter(isScope).filter((scope) => mayGrant.includes(scope));
  return {
    id: row.id,
    object: "connected_app",
    client: { id: row.client_id, name: row.client_name, uri: row.client_uri },
    user: { id: row.user_id, name: row.user_name, email: row.user_email },
    scopes,
    status:
      row.revoked_at !== null
        ? "revoked"
        : Date.parse(row.refresh_expires_at) <= now
          ? "expired"
          : scopes.length === 0
            ? "no_access"
            : "active",
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

/** The applications members connected to the workspace, newest first (the latest 200). */
export async function listConnections(ctx: ServiceContext): Promise<ConnectionView[]> {
  const rows = await connectionRows(ctx).limit(200).execute();
  const now = ctx.clock.now().getTime();
  const allowed = await allowedNow(ctx, rows);
  return rows.map((row) => toView(row, now, allowed));
}

/** Disconnects an application: a member their own, an admin or owner anyone's. */
export async function revokeConnection(ctx: ServiceContext, member: Membership, id: string): Promise<ConnectionView> {
  const row = await ctx.db
    .selectFrom("oauth_connections")
    .select(["id", "user_id"])
    .where("id", "=", id)
    .where("workspace_id", "=", ctx.workspace.id)
    .executeTakeFirst();
  if (row === undefined) throw notFound("connected app", id);
  if (row.user_id !== member.userId && !can(member.role, "manage_keys"))
    throw new ApiError(
      "FORBIDDEN",
      `Only the member who connected it, or an admin, can disconnect this application; your role is ${member.role}.`,
    );
  await revokeConnectionRow(ctx, row.id);
  const revoked = await connectionRows(ctx).where("c.id", "=", id).executeTakeFirstOrThrow();
  return toView(revoked, ctx.clock.now().getTime(), await allowedNow(ctx, [revoked]));
}
