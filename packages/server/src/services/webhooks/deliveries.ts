import type { WebhookAttemptsTable, WebhookDeliveriesTable } from "../../db/tables.ts";
import { notFound } from "../../errors/api-error.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { enqueueJob } from "../jobs/store.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { getEndpoint } from "./endpoints.ts";
import { DELIVER_JOB } from "./fanout.ts";
import type { WebhookDelivery } from "./types.ts";

function toDelivery(row: WebhookDeliveriesTable, attempts: WebhookAttemptsTable[]): WebhookDelivery {
  return {
    id: row.id,
    object: "webhook_delivery",
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type as WebhookDelivery["event_type"],
    status: row.status as WebhookDelivery["status"],
    attempt_count: row.attempt_count,
    next_attempt_at: row.next_attempt_at,
    delivered_at: row.delivered_at,
    attempts: attempts
      .filter((a) => a.delivery_id === row.id)
      .sort((a, b) => a.attempt - b.attempt)
      .map((a) => ({
        attempt: a.attempt,
        status_code: a.status_code,
        latency_ms: a.latency_ms,
        response_excerpt: a.response_excerpt,
        error: a.error,
        created_at: a.created_at,
      })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function attemptsOf(ctx: ServiceContext, deliveryIds: string[]): Promise<WebhookAttemptsTable[]> {
  if (deliveryIds.length === 0) return [];
  return ctx.db.selectFrom("webhook_attempts").selectAll().where("delivery_id", "in", deliveryIds).execute();
}

/** A subscription's deliveries, newest first, each with its attempts. */
export async function listDeliveries(
  ctx: ServiceContext,
  endpointId: string,
  params: PageParams,
): Promise<Page<WebhookDelivery>> {
  await getEndpoint(ctx, endpointId);
  const query = ctx.db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("endpoint_id", "=", endpointId);
  const page = await fetchPage(query, params, (row) => row);
  const attempts = await attemptsOf(
    ctx,
    page.data.map((row) => row.id),
  );
  return { ...page, data: page.data.map((row) => toDelivery(row, attempts)) };
}

/** Sends a delivery once more, now, with the same event id (a manual resend, not a new schedule). */
export async function redeliver(ctx: ServiceContext, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  await getEndpoint(ctx, endpointId);
  return inTransaction(ctx, async (tx) => {
    const row = await tx.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("workspace_id", "=", tx.workspace.id)
      .where("endpoint_id", "=", endpointId)
      .where("id", "=", deliveryId)
      .executeTakeFirst();
    if (row === undefined) throw notFound("delivery", deliveryId);
    await enqueueJob(tx, { kind: DELIVER_JOB, payload: { delivery_id: deliveryId, manual: true }, maxAttempts: 1 });
    return toDelivery(row, await attemptsOf(tx, [row.id]));
  });
}
