export { Sightline, type SightlineOptions } from "./client.ts";
export { type ErrorCode, SightlineConnectionError, SightlineError } from "./errors.ts";
export type { WebhookEvent } from "./generated/events.ts";
export type { ListProjectsQuery, OperationId, Operations } from "./generated/operations.ts";
export type * from "./generated/schemas.ts";
export { type PageOf, paginate } from "./pagination.ts";
export {
  type VerifyOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from "./webhooks.ts";
