import type { Static } from "typebox";
import type { WebhookDeliverySchema, WebhookEndpointSchema, WebhookEndpointWithSecretSchema } from "./schemas.ts";

/** A webhook subscription as the API shows it: never with its secret, except where noted. */
/** A subscription as the API shows it (never with its secret, but once at creation). */
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecretSchema>;

export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

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
