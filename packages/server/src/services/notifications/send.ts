import type { Updateable } from "kysely";
import type { NotificationsTable } from "../../db/tables.ts";
import { brandingOf } from "../branding/branding.ts";
import { brandedEmail } from "../branding/email.ts";
import type { Branding } from "../branding/types.ts";
import type { Deps } from "../context.ts";
import type { ClaimedJob, JobHandler, JobOutcome } from "../jobs/types.ts";
import type { WebhookTransport } from "../webhooks/transport.ts";
import { linkOrigin } from "../workspaces/links.ts";
import { alertMessage } from "./alert-message.ts";
import { digestMessage } from "./digest-mail.ts";
import { type Message, slackBody } from "./message.ts";
import { NOTIFY_RETRY_MS, notifyRetryDelayMs } from "./queue.ts";

const DONE: JobOutcome = { status: "succeeded" };

/** The longest a Slack 429's Retry-After is waited for within one attempt's schedule. */
const MAX_RETRY_AFTER_MS = 3_600_000;

/** One attempt's result, as a value: whether it is worth trying again, and when. */
type Attempt = { ok: true } | { ok: false; retryable: boolean; error: string; retryAfterMs?: number };

async function sendEmail(deps: Deps, to: string, message: Message, branding: Branding): Promise<Attempt> {
  if (deps.mailer === null) {
    return { ok: false, retryable: false, error: "e-mail is not configured on this server (SMTP_URL)" };
  }
  const body = brandedEmail(message, branding);
  const headers =
    message.unsubscribe === undefined
      ? undefined
      : // RFC 2369 and RFC 8058: mail clients offer "unsubscribe", and may do it in one POST.
        { "List-Unsubscribe": `<${message.unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
  try {
    await deps.mailer.send({ to, ...body, ...(headers === undefined ? {} : { headers }) });
    return { ok: true };
  } catch (error) {
    const code = (error as { responseCode?: unknown }).responseCode;
    // An SMTP 5xx is the server's final word on this message (no such mailbox, refused); anything
    // else (4xx, a connection that failed, a timeout) may pass later.
    const final = typeof code === "number" && code >= 500 && code < 600;
    return { ok: false, retryable: !final, error: `SMTP: ${(error as Error).message}` };
  }
}

function retryAfterMs(header: string | undefined): number {
  const seconds = Number(header);
  if (header !== undefined && Number.isFinite(seconds) && seconds >= 0)
    return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const date = header === undefined ? Number.NaN : Date.parse(header);
  return Number.isNaN(date) ? 60_000 : Math.min(Math.max(0, date - Date.now()), MAX_RETRY_AFTER_MS);
}

/**
 * Posts to a Slack incoming webhook through the webhooks' transport: the same outbound address
 * policy, checked on the address actually connected to (DNS rebinding fails), no redirects. 2xx is
 * delivered; 429 waits its Retry-After; 5xx and network failures are retried; any other answer
 * (400 invalid_payload, 403 invalid_token, 404 no_service, 410 channel_is_archived, a redirect) and
 * a refused address are final.
 */
async function postSlack(transport: WebhookTransport, url: string, message: Message): Promise<Attempt> {
  const response = await transport.send({ url, body: slackBody(message), headers: {} });
  const status = response.statusCode;
  if (status === null) {
    const error = response.error ?? "no response";
    return { ok: false, retryable: !error.startsWith("refused"), error };
  }
  if (status >= 200 && status < 300) return { ok: true };
  const said = (response.excerpt ?? "").trim().slice(0, 200);
  const error = `HTTP ${status}${said === "" ? "" : `: ${said}`}`;
  if (status === 429) return { ok: false, retryable: true, error, retryAfterMs: retryAfterMs(response.retryAfter) };
  if (status >= 500) return { ok: false, retryable: true, error };
  return { ok: false, retryable: false, error: status < 400 ? `${error} (redirects are not followed)` : error };
}

/**
 * The `notification.send` job: one attempt at one alert or digest message. The message is written
 * at send time from what is stored (the run that fired an alert has committed by then); a digest
 * to someone who has left the workspace or opted out since is canceled, not sent.
 */
export function sendNotificationHandler(deps: Deps, transport: WebhookTransport): JobHandler {
  return async (job: ClaimedJob) => {
    const id = String(job.payload.notification_id);
    const row = await deps.db.selectFrom("notifications").selectAll().where("id", "=", id).executeTakeFirst();
    if (row === undefined || row.status !== "pending") return DONE;
    const update = (values: Updateable<NotificationsTable>) =>
      deps.db
        .updateTable("notifications")
        .set({ ...values, updated_at: deps.clock.now().toISOString() })
        .where("id", "=", id)
        .execute();

    // Read at send time, as the message is: a change of branding applies to what is still to go.
    const branding = await brandingOf(deps, row.workspace_id);
    // Its links on the agency's custom host, for a client of an agency that has one.
    const linked = { ...deps, publicUrl: await linkOrigin(deps, row.workspace_id) };
    const message =
      row.kind === "alert"
        ? await alertMessage(linked, row.workspace_id, row.subject_id, branding)
        : await digestMessage(linked, row, branding);
    if (message === null) {
      await update({ status: "canceled" });
      return DONE;
    }
    let url: string | null = null;
    if (row.channel === "slack") {
      try {
        url = deps.secrets.decrypt(row.recipient);
      } catch (error) {
        const reason = `cannot decrypt the Slack URL: ${(error as Error).message}`;
        await update({ status: "failed", last_error: reason });
        return { status: "dead", error: reason };
      }
    }
    await update({ attempt_count: row.attempt_count + 1 });
    const attempt =
      url === null ? await sendEmail(deps, row.recipient, message, branding) : await postSlack(transport, url, message);
    if (attempt.ok) {
      await update({ status: "sent", sent_at: deps.clock.now().toISOString(), last_error: null });
      return DONE;
    }
    // What a receiver or SMTP server said is stored and logged: never with the Slack URL in it.
    const error = deps.redactor
      .with(url === null ? [] : [url])
      .scrub(attempt.error)
      .slice(0, 1_000);
    if (!attempt.retryable || job.attempt >= NOTIFY_RETRY_MS.length) {
      await update({ status: "failed", last_error: error });
      deps.logger.warn(
        { notification: id, workspace: row.workspace_id, kind: row.kind, channel: row.channel, error },
        "notification not delivered",
      );
      return { status: "dead", error };
    }
    await update({ last_error: error });
    return { status: "retry", delayMs: attempt.retryAfterMs ?? notifyRetryDelayMs(job.attempt + 1), error };
  };
}
