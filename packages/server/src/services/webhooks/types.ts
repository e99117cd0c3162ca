import type { EventType } from "../events/events.ts";

/** A webhook subscription as the API shows it: never with its secret, except where noted. */
export interface WebhookEndpoint {
  id: string;
  object: "webhook_endpoint";
  url: string;
  description: string | null;
  events: EventType[];
  active: boolean;
  /** Why Sightline turned it off (the receiver answered 410 Gone), if it did. */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** Returned by create and by a secret rotation only: the one time the secret is shown. */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string;
}

export interface WebhookAttempt {
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: string;
}

export interface WebhookDelivery {
  id: string;
  object: "webhook_delivery";
  endpoint_id: string;
  event_id: string;
  event_type: EventType;
  status: "pending" | "succeeded" | "failed" | "canceled";
  attempt_count: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  attempts: WebhookAttempt[];
  created_at: string;
  updated_at: string;
}

export const MAX_ENDPOINTS_PER_WORKSPACE = 20;

/**
 * Delays before each attempt: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, 24 h,
 * about three days in all (DESIGN.md §2). Each is jittered by ±20% at scheduling time.
 */
export const RETRY_SCHEDULE_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000, 86_400_000,
];

export function retryDelayMs(nextAttempt: number): number {
  const base = RETRY_SCHEDULE_MS[nextAttempt - 1] ?? 86_400_000;
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
