import { randomBytes } from "node:crypto";
import { ApiError, notFound, validationError } from "../../errors/api-error.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { isEmailAddress } from "../../lib/email.ts";
import { newId } from "../../lib/ids.ts";
import { brandingOf } from "../branding/branding.ts";
import { brandedEmail } from "../branding/email.ts";
import type { Deps, ServiceContext } from "../context.ts";
import { inTransaction } from "../context.ts";
import { linkOrigin } from "../workspaces/links.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";
import { addMember, type Membership } from "./members.ts";
import { can, isRole, ROLES, type Role } from "./roles.ts";

/** How long an invitation link works. */
const INVITATION_DAYS = 7;

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  expires_at: string;
  created_at: string;
}

export interface CreatedInvitation extends InvitationView {
  /** The link to give the invitee: the only place its token appears. */
  link: string;
  /** Whether it was sent by e-mail (SMTP configured). */
  emailed: boolean;
}

export interface InvitationPreview {
  workspace_id: string;
  workspace_name: string;
  email: string;
  role: Role;
  invited_by: string | null;
  expires_at: string;
  account_exists: boolean;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function roleOf(value: string): Role {
  return isRole(value) ? value : "viewer";
}

/** Invites someone by e-mail to join with `role`: a link valid 7 days, e-mailed when SMTP is set. */
export async function createInvitation(
  ctx: ServiceContext,
  actor: Membership & { name: string },
  input: { email: string; role: string },
): Promise<CreatedInvitation> {
  const email = normalizeEmail(input.email);
  const problems = [];
  if (!isEmailAddress(email)) problems.push({ field: "email", issue: "must be an e-mail address" });
  if (!isRole(input.role)) problems.push({ field: "role", issue: `must be one of ${ROLES.join(", ")}` });
  if (problems.length > 0) throw validationError(problems);
  const role = input.role as Role;
  if (role === "owner" && !can(actor.role, "manage_owners")) {
    throw new ApiError("FORBIDDEN", "Only an owner can invite an owner.");
  }
  const already = await ctx.db
    .selectFrom("members")
    .innerJoin("users", "users.id", "members.user_id")
    .select("users.id")
    .where("members.workspace_id", "=", ctx.workspace.id)
    .where("users.email", "=", email)
    .executeTakeFirst();
  if (already !== undefined)
    throw validationError([{ field: "email", issue: "is already a member of this workspace" }]);

  const token = randomBytes(24).toString("base64url");
  const now = ctx.clock.now();
  const row = {
    id: newId("inv"),
    workspace_id: ctx.workspace.id,
    email,
    role,
    token_hash: sha256Hex(token),
    invited_by: actor.userId,
    expires_at: new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
    accepted_at: null,
    revoked_at: null,
    created_at: now.toISOString(),
  };
  await ctx.db.insertInto("invitations").values(row).execute();
  const link = `${await linkOrigin(ctx, ctx.workspace.id)}/invite/${token}`;
  let emailed = false;
  if (ctx.mailer !== null) {
    const workspace = await ctx.db
      .selectFrom("workspaces")
      .select("name")
      .where("id", "=", ctx.workspace.id)
      .executeTakeFirstOrThrow();
    // In the workspace's branding: an agency invites its client under its own name.
    const branding = await brandingOf(ctx, ctx.workspace.id);
    const on = branding.show_sightline ? " on Sightline" : "";
    await ctx.mailer.send({
      to: email,
      ...brandedEmail(
        {
          subject: `${actor.name} invited you to ${workspace.name}${on}`,
          headline: `${actor.name} invited you to join the workspace "${workspace.name}"${on} as ${role}.`,
          facts: [],
          links: [{ label: "Accept the invitation", url: link }],
          footer: `The link works for ${INVITATION_DAYS} days, for ${email} only.`,
        },
        branding,
      ),
    });
    emailed = true;
  }
  return { ...toView(row), link, emailed };
}

function toView(row: {
  id: string;
  email: string;
  role: string;
  invited_by: string | null;
  expires_at: string;
  created_at: string;
}): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: roleOf(row.role),
    invited_by: row.invited_by,
    expires_at: row.expires_at,
    created_at: row.created_at,
  };
}

/** Invitations not accepted, revoked or expired yet, newest first. */
export async function listInvitations(ctx: ServiceContext): Promise<InvitationView[]> {
  const rows = await ctx.db
    .selectFrom("invitations")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", ctx.clock.now().toISOString())
    .orderBy("created_at", "desc")
    .execute();
  return rows.map(toView);
}

export async function revokeInvitation(ctx: ServiceContext, id: string): Promise<void> {
  const result = await ctx.db
    .updateTable("invitations")
    .set({ revoked_at: ctx.clock.now().toISOString() })
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound("invitation", id);
}

/** The pending invitation a link's token stands for; NOT_FOUND if unknown, used, revoked or expired. */
async function pending(deps: Deps, token: string) {
  const row = await deps.db
    .selectFrom("invitations")
    .innerJoin("workspaces", "workspaces.id", "invitations.workspace_id")
    .leftJoin("users as inviter", "inviter.id", "invitations.invited_by")
    .select([
      "invitations.id",
      "invitations.workspace_id",
      "workspaces.name as workspace_name",
      "invitations.email",
      "invitations.role",
      "invitations.expires_at",
      "invitations.accepted_at",
      "invitations.revoked_at",
      "inviter.name as inviter_name",
    ])
    .where("invitations.token_hash", "=", sha256Hex(token))
    .executeTakeFirst();
  const usable =
    row !== undefined &&
    row.accepted_at === null &&
    row.revoked_at === null &&
    row.expires_at > deps.clock.now().toISOString();
  if (!usable)
    throw new ApiError("NOT_FOUND", "This invitation link is not valid: it was used, revoked or has expired.");
  return row;
}

export async function previewInvitation(deps: Deps, token: string): Promise<InvitationPreview> {
  const row = await pending(deps, token);
  const account = await deps.db.selectFrom("users").select("id").where("email", "=", row.email).executeTakeFirst();
  return {
    workspace_id: row.workspace_id,
    workspace_name: row.workspace_name,
    email: row.email,
    role: roleOf(row.role),
    invited_by: row.inviter_name,
    expires_at: row.expires_at,
    account_exists: account !== undefined,
  };
}

/**
 * The user joins the invitation's workspace with its role; the invitation is used up. Only the
 * invited address may accept: a forwarded link does not let someone else in.
 */
export async function acceptInvitation(
  deps: Deps,
  user: { id: string; email: string },
  token: string,
): Promise<{ workspace_id: string; role: Role }> {
  const row = await pending(deps, token);
  if (normalizeEmail(user.email) !== row.email) {
    throw new ApiError("FORBIDDEN", `This invitation is for ${row.email}; sign in with that address to accept it.`);
  }
  const role = roleOf(row.role);
  const ctx = await workspaceContext(deps, row.workspace_id, { type: "user", id: user.id });
  await inTransaction(ctx, async (tx) => {
    const used = await tx.db
      .updateTable("invitations")
      .set({ accepted_at: tx.clock.now().toISOString() })
      .where("id", "=", row.id)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (used.numUpdatedRows === 0n) throw new ApiError("NOT_FOUND", "This invitation link was used already.");
    await addMember(tx, user.id, role);
  });
  return { workspace_id: row.workspace_id, role };
}
