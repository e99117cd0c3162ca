import type { WebhookEventType } from "./webhooks-api.ts";

/** The event kinds a subscription can receive, with what each one tells. */
export const EVENTS: readonly { type: WebhookEventType; description: string }[] = [
  { type: "analysis.completed", description: "An analysis has finished; carries its summary." },
  { type: "alert.triggered", description: "A monitoring alert fired, e.g. visibility dropped." },
  { type: "project.created", description: "A brand was added." },
  { type: "project.updated", description: "A brand was changed." },
  { type: "monitoring.completed", description: "A scheduled monitoring run has finished." },
];
