import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { ServiceContext } from "../context.ts";
import type { EventEnvelope, EventType } from "./types.ts";

/**
 * Writes an event in the transaction that makes the change it describes, then runs the event hooks
 * of the context in that same transaction (webhooks' fan-out writes a delivery for each subscription
 * that wants it): the event and its deliveries exist if and only if the change does.
 */
export async function recordEvent<T>(ctx: ServiceContext, type: EventType, data: T): Promise<EventEnvelope<T>> {
  if (!ctx.db.isTransaction) {
    throw new Error(`recordEvent(${type}) must run inside the transaction of the change it reports`);
  }
  const event: EventEnvelope<T> = {
    id: newId("evt"),
    type,
    created_at: ctx.clock.now().toISOString(),
    workspace_id: ctx.workspace.id,
    data,
  };
  await ctx.db
    .insertInto("events")
    .values({
      id: event.id,
      workspace_id: event.workspace_id,
      type: event.type,
      data: toJson(event.data),
      created_at: event.created_at,
    })
    .execute();
  for (const hook of ctx.eventHooks) await hook(ctx, event);
  return event;
}
