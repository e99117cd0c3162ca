import Type, { type TSchema } from "typebox";
import { component, Timestamp } from "../../lib/schema.ts";
import { AnalysisSchema } from "../analyses/schemas.ts";
import type { EventType } from "../events/types.ts";
import { AlertSchema, MonitoringRunSchema } from "../monitoring/schemas.ts";
import { ProjectSchema } from "../projects/schemas.ts";

function envelope<T extends TSchema>(name: string, type: EventType, data: T, description: string) {
  return component(
    name,
    Type.Object(
      {
        id: Type.String({ description: "The event's id (`evt_…`), sent as `X-Webhook-Id`; the same on every retry." }),
        type: Type.Literal(type),
        created_at: Timestamp,
        workspace_id: Type.String(),
        data,
      },
      { additionalProperties: false, description },
    ),
  );
}

/** Each event kind's payload. Kinds whose resources arrive with later releases say so. */
export const EVENT_SCHEMAS: Record<EventType, { schema: TSchema; summary: string }> = {
  "project.created": {
    summary: "A brand was added",
    schema: envelope(
      "ProjectCreatedEvent",
      "project.created",
      Type.Object({ object: ProjectSchema }, { additionalProperties: false }),
      "Sent when a brand is added, through the API or the dashboard.",
    ),
  },
  "project.updated": {
    summary: "A brand's settings changed",
    schema: envelope(
      "ProjectUpdatedEvent",
      "project.updated",
      Type.Object(
        {
          object: ProjectSchema,
          previous_attributes: Type.Object(
            {},
            { additionalProperties: true, description: "The changed fields' values before the change." },
          ),
        },
        { additionalProperties: false },
      ),
      "Sent when any setting of a brand changes; `previous_attributes` holds the old values of what changed.",
    ),
  },
  "analysis.completed": {
    summary: "An analysis finished",
    schema: envelope(
      "AnalysisCompletedEvent",
      "analysis.completed",
      Type.Object({ object: AnalysisSchema }, { additionalProperties: false }),
      "Sent when an analysis run finishes, whatever its outcome.",
    ),
  },
  "monitoring.completed": {
    summary: "A monitoring run finished",
    schema: envelope(
      "MonitoringCompletedEvent",
      "monitoring.completed",
      Type.Object({ object: MonitoringRunSchema }, { additionalProperties: false }),
      "Sent when a scheduled monitoring run finishes, whatever its outcome.",
    ),
  },
  "alert.triggered": {
    summary: "An alert fired",
    schema: envelope(
      "AlertTriggeredEvent",
      "alert.triggered",
      Type.Object({ object: AlertSchema }, { additionalProperties: false }),
      "Sent when an alert rule of a monitoring schedule fires.",
    ),
  },
};
