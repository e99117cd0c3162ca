import type { NotificationsTable } from "../../db/tables.ts";
import { count } from "../../lib/plural.ts";
import { membership } from "../accounts/members.ts";
import type { Branding } from "../branding/types.ts";
import { type Deps, inTransaction } from "../context.ts";
import { percent, sentiment } from "../glossary/format.ts";
import { GLOSSARY } from "../glossary/metrics.ts";
import { weekStart } from "../reports/generate.ts";
import { reportById } from "../reports/reports.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";
import { visibilityChange, visibilityFigure } from "./figures.ts";
import { dashboardLink, unsubscribeLink } from "./links.ts";
import type { Message } from "./message.ts";
import { queueNotification } from "./queue.ts";

/**
 * Queues the weekly digest e-mails owed: for each brand's digest of the last complete week (the
 * weekly_digest report the scheduler has just made), one e-mail to every member who had opted in
 * by the time it was made and still belongs to the workspace. Each e-mail is queued once (its
 * dedupe key), with its job, so a tick that dies half-way is finished by the next.
 *
 * @returns the e-mails queued by this call.
 */
export async function queueDigestEmails(deps: Deps, now: Date): Promise<number> {
  const end = weekStart(now).toISOString();
  const reports = await deps.db
    .selectFrom("reports")
    .select(["id", "workspace_id", "project_id", "created_at"])
    .where("type", "=", "weekly_digest")
    .where("period_end", "=", end)
    .execute();
  let queued = 0;
  for (const report of reports) {
    const members = await deps.db
      .selectFrom("digest_subscriptions as s")
      .innerJoin("users as u", "u.id", "s.user_id")
      .leftJoin("notifications as n", (join) =>
        join.on("n.subject_id", "=", report.id).onRef("n.user_id", "=", "s.user_id"),
      )
      .select(["s.user_id", "s.created_at", "u.email"])
      .where("s.workspace_id", "=", report.workspace_id)
      .where("s.project_id", "=", report.project_id)
      .where("n.id", "is", null)
      .execute();
    // Those who still work in the workspace: its members, and its agency's staff (their role there).
    const owed: typeof members = [];
    for (const m of members) {
      if (Date.parse(m.created_at) > Date.parse(report.created_at)) continue;
      if ((await membership(deps, report.workspace_id, m.user_id)) !== null) owed.push(m);
    }
    if (owed.length === 0) continue;
    const ctx = await workspaceContext(deps, report.workspace_id, { type: "system" });
    for (const member of owed) {
      const made = await inTransaction(ctx, (tx) =>
        queueNotification(tx, {
          kind: "digest",
          subjectId: report.id,
          channel: "email",
          recipient: member.email,
          userId: member.user_id,
          dedupeKey: `digest:${report.id}:${member.user_id}`,
        }),
      );
      if (made) queued++;
    }
  }
  return queued;
}

/**
 * What a digest e-mail says, from the weekly digest report's own figures: visibility with its 95%
 * interval and n, the change against the week before (when there was a digest then), share of
 * voice, sentiment, the week's alerts, signed links to the brand and its reports, and a signed
 * unsubscribe link; "Sightline" only where the workspace's branding shows it. Null when it must
 * not be sent any more: the member left the workspace, opted out since, or the report is gone.
 */
export async function digestMessage(
  deps: Deps,
  notification: Pick<NotificationsTable, "workspace_id" | "subject_id" | "user_id">,
  branding: Branding,
): Promise<Message | null> {
  const workspaceId = notification.workspace_id;
  const userId = notification.user_id;
  if (userId === null) return null;
  const report = await reportById(deps.db, workspaceId, notification.subject_id);
  if (report === null || report.project_id === null) return null;
  const projectId = report.project_id;
  const still = await deps.db
    .selectFrom("digest_subscriptions as s")
    .select("s.user_id")
    .where("s.workspace_id", "=", workspaceId)
    .where("s.project_id", "=", projectId)
    .where("s.user_id", "=", userId)
    .executeTakeFirst();
  if (still === undefined || (await membership(deps, workspaceId, userId)) === null) return null;

  const previous = await deps.db
    .selectFrom("reports")
    .select("id")
    .where("workspace_id", "=", workspaceId)
    .where("project_id", "=", projectId)
    .where("type", "=", "weekly_digest")
    .where("period_end", "=", report.period.start)
    .executeTakeFirst();
  const before = previous === undefined ? null : await reportById(deps.db, workspaceId, previous.id);
  const data = report.data;
  const overall = data.summary.overall;
  const brand = data.project.name;
  const week = `${report.period.start.slice(0, 10)} to ${new Date(Date.parse(report.period.end) - 86_400_000).toISOString().slice(0, 10)}`;
  const facts: Message["facts"] = [
    { label: "Brand", value: brand },
    { label: "Week", value: `${week} (UTC), ${count(data.history.length, "monitoring run")}` },
    { label: "Figure", value: visibilityFigure(overall.visibility) },
    {
      label: "Change",
      value: visibilityChange(overall.visibility, before?.data.summary.overall.visibility ?? null, "the week before"),
    },
    { label: GLOSSARY.share_of_voice.name, value: percent(overall.share_of_voice) },
    { label: GLOSSARY.sentiment.name, value: sentiment(overall.sentiment_score) },
    {
      label: "Alerts",
      value:
        data.alerts.length === 0
          ? "None this week"
          : `${count(data.alerts.length, "alert")}: ${data.alerts
              .slice(0, 3)
              .map((a) => a.message)
              .join(" ")}${data.alerts.length > 3 ? " …" : ""}`,
    },
  ];
  const base = `/w/${workspaceId}/brands/${projectId}`;
  return {
    subject: `Weekly digest: ${brand}, week of ${report.period.start.slice(0, 10)}`,
    headline: `${brand} in the week of ${report.period.start.slice(0, 10)}: ${visibilityFigure(overall.visibility)}.`,
    facts,
    links: [
      {
        label: branding.show_sightline ? `Open ${brand} in Sightline` : `Open ${brand}`,
        url: dashboardLink(deps, base),
      },
      { label: "This week's report", url: dashboardLink(deps, `${base}/analyses`) },
    ],
    unsubscribe: unsubscribeLink(deps, { workspaceId, projectId, userId }),
    footer: "You get this digest because you asked for it on the brand's monitoring page.",
  };
}
