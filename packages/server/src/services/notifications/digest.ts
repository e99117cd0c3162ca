import { validationError } from "../../errors/api-error.ts";
import type { Deps, ServiceContext } from "../context.ts";
import { getProject } from "../projects/projects.ts";
import type { DigestMember } from "./links.ts";
import type { DigestSubscription } from "./schemas.ts";

/** Whether the member gets the brand's weekly e-mail digest, and whether this server can send e-mail. */
export async function getDigestSubscription(
  ctx: ServiceContext,
  userId: string,
  projectId: string,
): Promise<DigestSubscription> {
  await getProject(ctx, projectId);
  const row = await ctx.db
    .selectFrom("digest_subscriptions")
    .select("created_at")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return { project_id: projectId, subscribed: row !== undefined, email_delivery: ctx.mailer !== null };
}

/**
 * Opts the member in or out of the brand's weekly digest. Opting in needs e-mail on the server
 * (SMTP_URL): without it the answer is VALIDATION_ERROR, not a promise no one keeps.
 */
export async function setDigestSubscription(
  ctx: ServiceContext,
  userId: string,
  projectId: string,
  subscribed: boolean,
): Promise<DigestSubscription> {
  await getProject(ctx, projectId);
  if (subscribed) {
    if (ctx.mailer === null) {
      throw validationError([
        { field: "subscribed", issue: "e-mail is not configured on this server (SMTP_URL): ask its operator" },
      ]);
    }
    await ctx.db
      .insertInto("digest_subscriptions")
      .values({
        workspace_id: ctx.workspace.id,
        project_id: projectId,
        user_id: userId,
        created_at: ctx.clock.now().toISOString(),
      })
      .onConflict((oc) => oc.columns(["project_id", "user_id"]).doNothing())
      .execute();
  } else {
    await ctx.db
      .deleteFrom("digest_subscriptions")
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "=", projectId)
      .where("user_id", "=", userId)
      .execute();
  }
  return getDigestSubscription(ctx, userId, projectId);
}

/**
 * Ends a digest from its signed unsubscribe link, without signing in. Saying it twice is the same.
 *
 * @returns the brand's name for the page that confirms it (null when the brand is gone).
 */
export async function unsubscribeDigest(deps: Deps, member: DigestMember): Promise<{ brand: string | null }> {
  await deps.db
    .deleteFrom("digest_subscriptions")
    .where("workspace_id", "=", member.workspaceId)
    .where("project_id", "=", member.projectId)
    .where("user_id", "=", member.userId)
    .execute();
  return { brand: await brandName(deps, member) };
}

/** The brand's name, for the unsubscribe pages. */
export async function brandName(deps: Deps, member: DigestMember): Promise<string | null> {
  const project = await deps.db
    .selectFrom("projects")
    .select("name")
    .where("workspace_id", "=", member.workspaceId)
    .where("id", "=", member.projectId)
    .executeTakeFirst();
  return project?.name ?? null;
}
