import type { EventsTable } from "../../db/tables.ts";

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
 * The JSON body of every delivery of an event, built from the stored row so that it is the same
 * bytes on every attempt: `{"id", "type", "created_at", "workspace_id", "data"}`.
 */
export function envelopeBody(row: Pick<EventsTable, "id" | "type" | "created_at" | "workspace_id" | "data">): string {
  return `{"id":${JSON.stringify(row.id)},"type":${JSON.stringify(row.type)},"created_at":${JSON.stringify(row.created_at)},"workspace_id":${JSON.stringify(row.workspace_id)},"data":${row.data}}`;
}
