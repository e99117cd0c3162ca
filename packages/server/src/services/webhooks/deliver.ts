import type { Updateable } from "kysely";
import type { WebhookDeliveriesTable } from "../../db/tables.ts";
import { newId } from "../../lib/ids.ts";
import type { Deps } from "../context.ts";
import { envelopeBody } from "../events/types.ts";
import type { ClaimedJob, JobHandler, JobOutcome } from "../jobs/types.ts";
import { signPayload } from "./signature.ts";
import type { WebhookTransport } from "./transport.ts";
import { RETRY_SCHEDULE_MS, retryDelayMs } from "./types.ts";

const DONE: JobOutcome = { status: "succeeded" };

/**
 * The `webhook.deliver` job: one attempt at one delivery. The body is the event's envelope,
 * byte for byte the same on every attempt; the timestamp and signature are those of this attempt.
 * 2xx succeeds; 410 turns the subscription off; anything else (3xx included: redirects are not
 * followed) is retried on the schedule until the last attempt. A manual redelivery is one attempt.
 */
export function deliverWebhookHandler(deps: Deps, transport: WebhookTransport): JobHandler {
  return async (job: ClaimedJob) => {
    const deliveryId = String(job.payload.delivery_id);
    const manual = job.payload.manual === true;
    const delivery = await deps.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("id", "=", deliveryId)
      .executeTakeFirst();
    if (delivery === undefined || (!manual && delivery.status !== "pending")) return DONE;
    const workspaceId = delivery.workspace_id;
    const now = () => deps.clock.now().toISOString();
    const update = (values: Updateable<WebhookDeliveriesTable>) =>
      deps.db
        .updateTable("webhook_deliveries")
        .set({ ...values, updated_at: now() })
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", deliveryId);

    const endpoint = await deps.db
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", delivery.endpoint_id)
      .executeTakeFirst();
    if (endpoint === undefined || !endpoint.active) {
      if (!manual) {
        await update({ status: "canceled", next_attempt_at: null }).where("status", "=", "pending").execute();
      }
      return DONE;
    }
    const event = await deps.db
      .selectFrom("events")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", delivery.event_id)
      .executeTakeFirst();
    if (event === undefined) return { status: "dead", error: `event ${delivery.event_id} is missing` };

    let secret: string;
    try {
      secret = deps.secrets.decrypt(endpoint.secret_ciphertext);
    } catch (error) {
      // The server's secret key changed or differs between hosts: no attempt can be signed, and
      // retrying will not help. Say so on the delivery rather than leave it pending.
      if (!manual) await update({ status: "failed", next_attempt_at: null }).execute();
      return { status: "dead", error: `cannot decrypt the subscription's secret: ${(error as Error).message}` };
    }

    // Number the attempt atomically (shown to receivers and in the attempt log): a manual resend and
    // a scheduled retry never share one. The retry schedule follows the job's own attempts, so
    // manual resends do not use it up.
    const counted = await deps.db
      .updateTable("webhook_deliveries")
      .set((eb) => ({ attempt_count: eb("attempt_count", "+", 1), updated_at: now() }))
      .where("workspace_id", "=", workspaceId)
      .where("id", "=", deliveryId)
      .returning("attempt_count")
      .executeTakeFirstOrThrow();
    const attempt = counted.attempt_count;

    const body = envelopeBody(event);
    const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
    const response = await transport.send({
      url: endpoint.url,
      body,
      headers: {
        "x-webhook-id": event.id,
        "x-webhook-event": event.type,
        "x-webhook-timestamp": String(timestamp),
        "x-webhook-signature": signPayload(secret, timestamp, body),
        "x-webhook-delivery": deliveryId,
        "x-webhook-attempt": String(attempt),
      },
    });
    // The receiver's answer is stored and shown in the delivery log: scrub it first, of this
    // subscription's own secret too (a receiver echoing its headers or config, say).
    const redactor = deps.redactor.with([secret]);
    const scrub = (text: string | null) => (text === null ? null : redactor.scrub(text));
    await deps.db
      .insertInto("webhook_attempts")
      .values({
        id: newId("wha"),
        delivery_id: deliveryId,
        attempt,
        status_code: response.statusCode,
        latency_ms: response.latencyMs,
        response_excerpt: scrub(response.excerpt),
        error: scrub(
          response.error ??
            (response.statusCode !== null && response.statusCode >= 300 ? `HTTP ${response.statusCode}` : null),
        ),
        created_at: now(),
      })
      .execute();

    const status = response.statusCode;
    if (status !== null && status >= 200 && status < 300) {
      await update({ status: "succeeded", delivered_at: now(), next_attempt_at: null }).execute();
      return DONE;
    }
    if (status === 410) {
      const reason = `The receiver answered 410 Gone on ${now()}; set active to true to resume.`;
      await deps.db
        .updateTable("webhook_endpoints")
        .set({ active: false, disabled_reason: reason, updated_at: now() })
        .where("workspace_id", "=", workspaceId)
        .where("id", "=", endpoint.id)
        .execute();
      await update({ status: "failed", next_attempt_at: null }).execute();
      deps.logger.warn(
        { endpoint: endpoint.id, workspace: workspaceId },
        "webhook subscription disabled: receiver answered 410",
      );
      return DONE;
    }
    const error = response.error ?? `HTTP ${status}`;
    // A failed manual resend is logged as an attempt and changes nothing else.
    if (manual) return DONE;
    if (job.attempt >= RETRY_SCHEDULE_MS.length) {
      await update({ status: "failed", next_attempt_at: null }).execute();
      return { status: "dead", error: `last attempt failed: ${error}` };
    }
    const delayMs = retryDelayMs(job.attempt + 1);
    await update({ next_attempt_at: new Date(deps.clock.now().getTime() + delayMs).toISOString() }).execute();
    return { status: "retry", delayMs, error };
  };
}
