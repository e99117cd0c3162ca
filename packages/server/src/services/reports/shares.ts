import type { Selectable } from "kysely";
import type { Static } from "typebox";
import type { ReportSharesTable } from "../../db/tables.ts";
import { notFound } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import type { Deps, ServiceContext } from "../context.ts";
import { linkOrigin } from "../workspaces/links.ts";
import { assertReport, reportById } from "./reports.ts";
import type { ReportShareSchema } from "./schemas.ts";
import type { Report } from "./types.ts";

/** A link opening one report without an account. */
export type ReportShare = Static<typeof ReportShareSchema>;

const PURPOSE = "report-share";
const DEFAULT_DAYS = 30;
/** The most links one report keeps at once (revoked and expired ones included): a bound, not a quota anyone meets. */
const MAX_SHARES_PER_REPORT = 100;

/**
 * A share's link: `/shared/reports/<share id>.<signature>`. The signature (HMAC-SHA256 under the
 * server's secret key) makes links unforgeable even by someone who learns a share's id; the row
 * makes them expire and revocable. The same link is shown again on every read, as a document
 * sharing tool does: it is meant to be passed around, and revoking it is how it is taken back.
 */
function shareToken(deps: Pick<Deps, "secrets">, shareId: string): string {
  return `${shareId}.${deps.secrets.sign(PURPOSE, shareId)}`;
}

/**
 * Whether the caller may see links: whoever may create them (the `reports` scope; the member role
 * and above). A link opens the report to anyone holding it, so a read-only key or a viewer sees
 * that links exist, not the links themselves. The operator and the system see everything.
 */
function seesLinks(ctx: Pick<ServiceContext, "scopes">): boolean {
  return ctx.scopes === undefined || ctx.scopes.includes("reports");
}

function rowToShare(
  ctx: Pick<ServiceContext, "secrets" | "clock" | "scopes">,
  row: Selectable<ReportSharesTable>,
  origin: string,
) {
  const now = ctx.clock.now().toISOString();
  return {
    id: row.id,
    object: "report_share" as const,
    report_id: row.report_id,
    url: seesLinks(ctx) ? `${origin}/shared/reports/${shareToken(ctx, row.id)}` : null,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    active: row.revoked_at === null && row.expires_at > now,
    created_at: row.created_at,
  } satisfies ReportShare;
}

/** A new link to the report, opening it for `days` (30 by default). */
export async function createReportShare(
  ctx: ServiceContext,
  reportId: string,
  input: { expires_in_days?: number },
): Promise<ReportShare> {
  await assertReport(ctx, reportId);
  const now = ctx.clock.now();
  const days = input.expires_in_days ?? DEFAULT_DAYS;
  const row = {
    id: newId("rsh"),
    workspace_id: ctx.workspace.id,
    report_id: reportId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + days * 86_400_000).toISOString(),
    revoked_at: null,
  };
  const existing = await ctx.db
    .selectFrom("report_shares")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("workspace_id", "=", ctx.workspace.id)
    .where("report_id", "=", reportId)
    .executeTakeFirstOrThrow();
  if (Number(existing.n) >= MAX_SHARES_PER_REPORT) {
    // The oldest link makes room: revoked or expired ones first, as they open nothing anyway.
    const oldest = await ctx.db
      .selectFrom("report_shares")
      .select("id")
      .where("workspace_id", "=", ctx.workspace.id)
      .where("report_id", "=", reportId)
      .orderBy("created_at")
      .orderBy("id")
      .limit(1)
      .executeTakeFirstOrThrow();
    await ctx.db.deleteFrom("report_shares").where("id", "=", oldest.id).execute();
  }
  await ctx.db.insertInto("report_shares").values(row).execute();
  return rowToShare(ctx, row, await linkOrigin(ctx, ctx.workspace.id));
}

/** The report's links, newest first, revoked and expired ones included (at most 100). */
export async function listReportShares(
  ctx: ServiceContext,
  reportId: string,
): Promise<{ data: ReportShare[]; has_more: false; next_cursor: null }> {
  await assertReport(ctx, reportId);
  const rows = await ctx.db
    .selectFrom("report_shares")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("report_id", "=", reportId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(MAX_SHARES_PER_REPORT)
    .execute();
  const origin = await linkOrigin(ctx, ctx.workspace.id);
  return { data: rows.map((row) => rowToShare(ctx, row, origin)), has_more: false, next_cursor: null };
}

/** Takes a link back: from now on it is 404. Revoking twice keeps the first time. */
export async function revokeReportShare(ctx: ServiceContext, reportId: string, shareId: string): Promise<ReportShare> {
  const find = () =>
    ctx.db
      .selectFrom("report_shares")
      .selectAll()
      .where("workspace_id", "=", ctx.workspace.id)
      .where("report_id", "=", reportId)
      .where("id", "=", shareId)
      .executeTakeFirst();
  const row = await find();
  if (row === undefined) throw notFound("report share", shareId);
  if (row.revoked_at === null) {
    await ctx.db
      .updateTable("report_shares")
      .set({ revoked_at: ctx.clock.now().toISOString() })
      .where("id", "=", shareId)
      .where("revoked_at", "is", null)
      .execute();
  }
  return rowToShare(ctx, (await find()) ?? row, await linkOrigin(ctx, ctx.workspace.id));
}

/**
 * The report a shared link opens, or null: a malformed or forged token, an unknown, revoked or
 * expired share, or a report that no longer exists all look the same to the visitor.
 */
export async function sharedReport(deps: Deps, token: string): Promise<Report | null> {
  const match = /^(rsh_[0-9A-Za-z]{24})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (match === null) return null;
  const [, shareId, signature] = match as unknown as [string, string, string];
  if (!deps.secrets.verify(PURPOSE, shareId, signature)) return null;
  const share = await deps.db
    .selectFrom("report_shares")
    .select(["workspace_id", "report_id", "expires_at", "revoked_at"])
    .where("id", "=", shareId)
    .executeTakeFirst();
  if (share === undefined || share.revoked_at !== null) return null;
  if (share.expires_at <= deps.clock.now().toISOString()) return null;
  return reportById(deps.db, share.workspace_id, share.report_id);
}
