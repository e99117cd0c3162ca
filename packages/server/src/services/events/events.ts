import type { EventsTable } from "../../db/tables.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { ServiceContext } from "../context.ts";
import { fanOutEvent } from "../webhooks/fanout.ts";

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
 * Writes an event, and a delivery for each subscription that wants it, in the transaction that
 * makes the change it describes: the event exists if and only if the change does.
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
  await fanOutEvent(ctx, event);
  return event;
}

/**
 * The JSON body of every delivery of an event, built from the stored row so that it is the same
 * bytes on every attempt: `{"id", "type", "created_at", "workspace_id", "data"}`.
 */
export function envelopeBody(row: Pick<EventsTable, "id" | "type" | "created_at" | "workspace_id" | "data">): string {
  return `{"id":${JSON.stringify(row.id)},"type":${JSON.stringify(row.type)},"created_at":${JSON.stringify(row.created_at)},"workspace_id":${JSON.stringify(row.workspace_id)},"data":${row.data}}`;
}
