import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { ServiceContext } from "../context.ts";

/** The spec's event kinds; every one of them is dispatched. */
export const EVENT_TYPES = [
  "analysis.completed",
  "alert.triggered",
  "project.created",
  "project.updated",
  "monitoring.completed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface EventEnvelope<T = unknown> {
  id: string;
  type: EventType;
  created_at: string;
  workspace_id: string;
  data: T;
}

/**
 * Writes an event to the outbox. Call it inside the transaction that makes the change it
 * describes, so that the event exists if and only if the change does.
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
  return event;
}
