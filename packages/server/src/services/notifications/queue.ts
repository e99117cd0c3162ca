import { newId } from "../../lib/ids.ts";
import type { ServiceContext } from "../context.ts";
import type { EventEnvelope } from "../events/types.ts";
import { enqueueJob } from "../jobs/store.ts";
import { alertColumns } from "../monitoring/columns.ts";

export const NOTIFY_JOB = "notification.send";

/**
 * Delays before each attempt at a message: at once, then 10 s, 1 min, 5 min, 30 min, 2 h, 6 h,
 * 12 h — about 21 hours in all (a Slack 429 waits its Retry-After instead). ±20% jitter.
 */
export const NOTIFY_RETRY_MS = [0, 10_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000];

export function notifyRetryDelayMs(nextAttempt: number): number {
  const base = NOTIFY_RETRY_MS[nextAttempt - 1] ?? 43_200_000;
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

interface Notification {
  kind: "alert" | "digest";
  subjectId: string;
  channel: "email" | "slack";
  recipient: string;
  userId?: string;
  dedupeKey: string;
}

/**
 * Writes one message to send and its job, in the caller's transaction: both exist if and only if
 * what caused them commits. A message already queued (same `dedupeKey`) is not queued again.
 *
 * @returns whether it was queued now.
 */
export async function queueNotification(ctx: ServiceContext, notification: Notification): Promise<boolean> {
  const now = ctx.clock.now().toISOString();
  const id = newId("ntf");
  const inserted = await ctx.db
    .insertInto("notifications")
    .values({
      id,
      workspace_id: ctx.workspace.id,
      kind: notification.kind,
      subject_id: notification.subjectId,
      channel: notification.channel,
      recipient: notification.recipient,
      user_id: notification.userId ?? null,
      dedupe_key: notification.dedupeKey,
      status: "pending",
      attempt_count: 0,
      last_error: null,
      created_at: now,
      updated_at: now,
      sent_at: null,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .executeTakeFirst();
  if (inserted.numInsertedOrUpdatedRows === 0n) return false;
  await enqueueJob(ctx, {
    kind: NOTIFY_JOB,
    payload: { notification_id: id },
    // Headroom past the schedule: an attempt cut short by a crash near its end still ends with a verdict.
    maxAttempts: NOTIFY_RETRY_MS.length + 3,
  });
  return true;
}

/**
 * The event hook of alert channels: when `alert.triggered` is recorded (in the transaction of the
 * run that fired it), one message per e-mail address and one for Slack, as the rule named them then.
 * The Slack URL is copied still encrypted; it is decrypted only to send.
 */
export async function notifyAlertChannels(ctx: ServiceContext, event: EventEnvelope): Promise<number> {
  if (event.type !== "alert.triggered") return 0;
  const alertId = (event.data as { object?: { id?: unknown } }).object?.id;
  if (typeof alertId !== "string") return 0;
  const alert = await ctx.db
    .selectFrom("alerts")
    .select(["id", "rule"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", alertId)
    .executeTakeFirst();
  const channels = alert === undefined ? undefined : alertColumns.rule.read(alert.rule).channels;
  if (channels === undefined) return 0;
  let queued = 0;
  for (const address of channels.email ?? []) {
    const dedupeKey = `alert:${alertId}:email:${address}`;
    if (
      await queueNotification(ctx, {
        kind: "alert",
        subjectId: alertId,
        channel: "email",
        recipient: address,
        dedupeKey,
      })
    )
      queued++;
  }
  if (channels.slack !== undefined) {
    const dedupeKey = `alert:${alertId}:slack`;
    const recipient = channels.slack.ciphertext;
    if (await queueNotification(ctx, { kind: "alert", subjectId: alertId, channel: "slack", recipient, dedupeKey }))
      queued++;
  }
  return queued;
}
