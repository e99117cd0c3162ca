import type {
  WebhookDelivery,
  WebhookEndpointCreate,
  WebhookEndpointDeleted,
  WebhookEndpointUpdate,
  WebhookEndpointUpdated,
  WebhookEndpointWithSecret,
} from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export type WebhookEventType = WebhookEndpointCreate["events"][number];

export function webhooksQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "webhooks"),
    queryFn: ({ signal }) => v1Call(workspaceId, "listWebhooks", { query: { limit: 100 } }, { signal }),
  });
}

export function deliveriesQuery(workspaceId: string, endpointId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "webhooks", endpointId, "deliveries"),
    queryFn: ({ signal }) =>
      v1Call(workspaceId, "listWebhookDeliveries", { params: { id: endpointId }, query: { limit: 20 } }, { signal }),
  });
}

/** The answer holds the signing secret: callers keep it in component state only. */
export function createWebhook(workspaceId: string, body: WebhookEndpointCreate): Promise<WebhookEndpointWithSecret> {
  return v1Call(workspaceId, "createWebhook", { body });
}

export function updateWebhook(
  workspaceId: string,
  endpointId: string,
  body: WebhookEndpointUpdate,
): Promise<WebhookEndpointUpdated> {
  return v1Call(workspaceId, "updateWebhook", { params: { id: endpointId }, body });
}

export function deleteWebhook(workspaceId: string, endpointId: string): Promise<WebhookEndpointDeleted> {
  return v1Call(workspaceId, "deleteWebhook", { params: { id: endpointId } });
}

export function redeliver(workspaceId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  return v1Call(workspaceId, "redeliverWebhook", { params: { id: endpointId, delivery_id: deliveryId } });
}
