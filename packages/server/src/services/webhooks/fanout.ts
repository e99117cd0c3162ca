import { newId } from "../../lib/ids.ts";
import type { ServiceContext } from "../context.ts";
import type { EventEnvelope } from "../events/types.ts";
import { enqueueJob } from "../jobs/store.ts";
import { endpointColumns } from "./columns.ts";
import { RETRY_SCHEDULE_MS } from "./types.ts";

export const DELIVER_JOB = "webhook.deliver";

/**
 * Creates one delivery, and the job that sends it, for every active subscription of the event's
 * workspace that listens to its kind. Runs in the transaction that records the event, so an event
 * and its deliveries commit together: none can be lost or sent for a change that rolled back.
 */
export async function fanOutEvent(ctx: ServiceContext, event: EventEnvelope): Promise<number> {
  const endpoints = await ctx.db
    .selectFrom("webhook_endpoints")
    .select(["id", "events", "active"])
    .where("workspace_id", "=", event.workspace_id)
    .execute();
  const now = ctx.clock.now().toISOString();
  let count = 0;
  for (const endpoint of endpoints) {
    if (!endpoint.active) continue;
    if (!endpointColumns.events.read(endpoint.events).includes(event.type)) continue;
    const deliveryId = newId("whd");
    await ctx.db
      .insertInto("webhook_deliveries")
      .values({
        id: deliveryId,
        workspace_id: event.workspace_id,
        endpoint_id: endpoint.id,
        event_id: event.id,
        event_type: event.type,
        status: "pending",
        attempt_count: 0,
        next_attempt_at: now,
        delivered_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    // The job's attempts are the schedule's (a crash mid-attempt counts as one); the headroom lets
    // attempts interrupted near the end of the schedule still end with a verdict on the delivery.
    await enqueueJob(ctx, {
      kind: DELIVER_JOB,
      payload: { delivery_id: deliveryId },
      maxAttempts: RETRY_SCHEDULE_MS.length + 5,
    });
    count++;
  }
  return count;
}
