import { ApiError, validationError } from "../../errors/api-error.ts";
import { isEmailAddress } from "../../lib/email.ts";
import type { Deps } from "../context.ts";
import { inTransaction } from "../context.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";
import type { AccountUser } from "./identity.ts";
import { acceptInvitation, normalizeEmail, previewInvitation } from "./invitations.ts";
import { addMember } from "./members.ts";
import { isSetupCode } from "./setup-code.ts";
import { createWorkspaceFor } from "./workspaces.ts";

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  workspace_name?: string;
  invitation?: string;
  setup_code?: string;
}

export interface SignedUp {
  user: AccountUser;
  workspace_id: string;
  /** The new session's cookies. */
  setCookie: string[];
}

/** Whether the installation still waits for its first account (GET /app/api/setup). */
export async function needsSetup(deps: Deps): Promise<boolean> {
  const row = await deps.db.selectFrom("installation").select("id").executeTakeFirst();
  return row === undefined;
}

function checkInput(input: SignUpInput): void {
  const problems = [];
  if (input.name.trim().length === 0) problems.push({ field: "name", issue: "must not be empty" });
  if (!isEmailAddress(input.email.trim())) {
    problems.push({ field: "email", issue: "must be an e-mail address" });
  }
  if (input.password.length < 10 || input.password.length > 128) {
    problems.push({ field: "password", issue: "must be 10 to 128 characters" });
  }
  if (problems.length > 0) throw validationError(problems);
}

async function createAccount(deps: Deps, input: SignUpInput, headers: Headers) {
  const exists = await deps.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", normalizeEmail(input.email))
    .executeTakeFirst();
  if (exists !== undefined) {
    throw validationError([{ field: "email", issue: "already has an account: sign in instead" }]);
  }
  return deps.identity.signUp(
    { name: input.name.trim(), email: normalizeEmail(input.email), password: input.password },
    headers,
  );
}

/**
 * Creates an account. The first one on an installation makes a workspace on the sign-up plan and
 * owns it; afterwards an account needs a pending invitation for its address (it joins that
 * workspace with the invitation's role), unless the operator opened sign-up (a workspace of one's
 * own). The first-run claim is a row written in the workspace's transaction: of two first sign-ups
 * at once, the second is refused and its account removed.
 */
export async function signUp(deps: Deps, input: SignUpInput, headers: Headers): Promise<SignedUp> {
  checkInput(input);
  if (input.invitation !== undefined) {
    const invitation = await previewInvitation(deps, input.invitation);
    if (invitation.email !== normalizeEmail(input.email)) {
      throw validationError([{ field: "email", issue: `must be ${invitation.email}, the invited address` }]);
    }
    const created = await createAccount(deps, input, headers);
    const joined = await acceptInvitation(deps, created.user, input.invitation);
    return { ...created, workspace_id: joined.workspace_id };
  }
  const first = await needsSetup(deps);
  if (!first && !deps.signup.open) {
    throw new ApiError("FORBIDDEN", "Sign-up is by invitation: ask a workspace admin to invite you.");
  }
  // Whoever creates the first account owns the installation: only someone who can read the
  // server's console or data folder can, not the first page to reach its address.
  if (first && !isSetupCode(deps.setupCode, input.setup_code)) {
    throw validationError([
      {
        field: "setup_code",
        issue:
          input.setup_code === undefined || input.setup_code.trim() === ""
            ? "is required for the first account: the server prints it when it starts (or run `npm run sightline -- setup-code`)"
            : "is not this server's setup code: copy it from the server's console (or run `npm run sightline -- setup-code`)",
      },
    ]);
  }
  const workspaceName = (input.workspace_name ?? "").trim() || `${input.name.trim()}'s workspace`;
  const created = await createAccount(deps, input, headers);
  try {
    if (!first) {
      const workspace = await createWorkspaceFor(deps, created.user.id, workspaceName);
      return { ...created, workspace_id: workspace.id };
    }
    const workspaceId = await inTransaction(deps, async (tx) => {
      const now = tx.clock.now().toISOString();
      const claimed = await tx.db
        .insertInto("installation")
        .values({ id: "sightline", first_user_id: created.user.id, created_at: now })
        .onConflict((oc) => oc.column("id").doNothing())
        .executeTakeFirst();
      if ((claimed.numInsertedOrUpdatedRows ?? 0n) === 0n) {
        throw new ApiError("FORBIDDEN", "Sightline was set up a moment ago: ask its owner for an invitation.");
      }
      const workspace = await createWorkspaceFor(tx, created.user.id, workspaceName);
      return workspace.id;
    });
    return { ...created, workspace_id: workspaceId };
  } catch (error) {
    await deps.db.deleteFrom("users").where("id", "=", created.user.id).execute();
    throw error;
  }
}

/**
 * The operator's `sightline user create`: an account for an existing workspace (made with the CLI),
 * without a password; the user sets one through the reset link the CLI prints.
 */
export async function createUserForWorkspace(
  deps: Deps,
  input: { workspaceId: string; email: string; name?: string; role: "owner" | "admin" | "member" | "viewer" },
): Promise<{ user: AccountUser; link: string | null }> {
  const ctx = await workspaceContext(deps, input.workspaceId);
  const email = normalizeEmail(input.email);
  if (!isEmailAddress(email)) throw validationError([{ field: "email", issue: "must be an e-mail address" }]);
  const existing = await deps.db
    .selectFrom("users")
    .select(["id", "name", "email"])
    .where("email", "=", email)
    .executeTakeFirst();
  const user =
    existing ?? (await deps.identity.createUser({ name: input.name?.trim() || email.split("@")[0] || email, email }));
  await inTransaction(ctx, async (tx) => {
    await addMember(tx, user.id, input.role);
    // An installation whose first owner came from the CLI is set up.
    await tx.db
      .insertInto("installation")
      .values({ id: "sightline", first_user_id: user.id, created_at: tx.clock.now().toISOString() })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
  });
  return { user, link: existing === undefined ? await deps.identity.resetLink(email) : null };
}
