import { listDeliveries, redeliver } from "../../../services/webhooks/deliveries.ts";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  updateEndpoint,
} from "../../../services/webhooks/endpoints.ts";
import {
  DeliveryParams,
  ListQuery,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointCreateSchema,
  WebhookEndpointDeletedSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointUpdatedSchema,
  WebhookEndpointUpdateSchema,
  WebhookEndpointWithSecretSchema,
} from "../../../services/webhooks/schemas.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Webhooks";

export const listWebhooksRoute = defineRoute({
  operationId: "listWebhooks",
  method: "GET",
  path: "/webhooks",
  tag,
  summary: "List webhook subscriptions",
  description: "The workspace's subscriptions, newest first. Secrets are never listed.",
  scope: "webhooks",
  query: ListQuery,
  success: { status: 200, description: "A page of subscriptions.", schema: WebhookEndpointListSchema },
  handler: ({ ctx, query }) => listEndpoints(ctx, query),
});

export const createWebhookRoute = defineRoute({
  operationId: "createWebhook",
  method: "POST",
  path: "/webhooks",
  tag,
  summary: "Subscribe to events",
  description:
    "Subscribes a URL to event kinds. The response carries the signing secret, the only time it is shown. The URL must resolve to public addresses only.",
  scope: "webhooks",
  body: WebhookEndpointCreateSchema,
  success: { status: 201, description: "The subscription, with its secret.", schema: WebhookEndpointWithSecretSchema },
  handler: ({ ctx, body }) => createEndpoint(ctx, body),
});

export const getWebhookRoute = defineRoute({
  operationId: "getWebhook",
  method: "GET",
  path: "/webhooks/:id",
  tag,
  summary: "Read a webhook subscription",
  description: "One subscription, without its secret.",
  scope: "webhooks",
  params: IdParams,
  success: { status: 200, description: "The subscription.", schema: WebhookEndpointSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getEndpoint(ctx, params.id),
});

export const updateWebhookRoute = defineRoute({
  operationId: "updateWebhook",
  method: "PATCH",
  path: "/webhooks/:id",
  tag,
  summary: "Change a webhook subscription",
  description: "Changes the fields sent. `rotate_secret: true` replaces the secret and returns the new one once.",
  scope: "webhooks",
  params: IdParams,
  body: WebhookEndpointUpdateSchema,
  success: { status: 200, description: "The subscription after the change.", schema: WebhookEndpointUpdatedSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => updateEndpoint(ctx, params.id, body),
});

export const deleteWebhookRoute = defineRoute({
  operationId: "deleteWebhook",
  method: "DELETE",
  path: "/webhooks/:id",
  tag,
  summary: "Remove a webhook subscription",
  description: "Removes the subscription; deliveries still pending for it are canceled.",
  scope: "webhooks",
  params: IdParams,
  success: { status: 200, description: "What was deleted.", schema: WebhookEndpointDeletedSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => deleteEndpoint(ctx, params.id),
});

export const listWebhookDeliveriesRoute = defineRoute({
  operationId: "listWebhookDeliveries",
  method: "GET",
  path: "/webhooks/:id/deliveries",
  tag,
  summary: "List a subscription's deliveries",
  description:
    "Every event sent to the subscription, newest first, with each attempt's status, latency and response excerpt.",
  scope: "webhooks",
  extension: true,
  params: IdParams,
  query: ListQuery,
  success: { status: 200, description: "A page of deliveries.", schema: WebhookDeliveryListSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => listDeliveries(ctx, params.id, query),
});

export const redeliverWebhookRoute = defineRoute({
  operationId: "redeliverWebhook",
  method: "POST",
  path: "/webhooks/:id/deliveries/:delivery_id/redeliver",
  tag,
  summary: "Send a delivery again",
  description:
    "Queues one more attempt of a delivery, now, with the same `X-Webhook-Id`. A failed resend is logged as an attempt and changes nothing else.",
  scope: "webhooks",
  extension: true,
  params: DeliveryParams,
  success: { status: 202, description: "The delivery, as queued.", schema: WebhookDeliverySchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => redeliver(ctx, params.id, params.delivery_id),
});
