import type {
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpointCreate,
  WebhookEndpointDeleted,
  WebhookEndpointList,
  WebhookEndpointUpdate,
  WebhookEndpointUpdated,
  WebhookEndpointWithSecret,
} from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { api, v1 } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export type WebhookEventType = WebhookEndpointCreate["events"][number];

export function webhooksQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "webhooks"),
    queryFn: ({ signal }) => api<WebhookEndpointList>(v1(workspaceId, "/webhooks?limit=100"), { signal }),
  });
}

export function deliveriesQuery(workspaceId: string, endpointId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "webhooks", endpointId, "deliveries"),
    queryFn: ({ signal }) =>
      api<WebhookDeliveryList>(v1(workspaceId, `/webhooks/${encodeURIComponent(endpointId)}/deliveries?limit=20`), {
        signal,
      }),
  });
}

/** The answer holds the signing secret: callers keep it in component state only. */
export function createWebhook(workspaceId: string, body: WebhookEndpointCreate): Promise<WebhookEndpointWithSecret> {
  return api<WebhookEndpointWithSecret>(v1(workspaceId, "/webhooks"), { method: "POST", body });
}

export function updateWebhook(
  workspaceId: string,
  endpointId: string,
  body: WebhookEndpointUpdate,
): Promise<WebhookEndpointUpdated> {
  return api<WebhookEndpointUpdated>(v1(workspaceId, `/webhooks/${encodeURIComponent(endpointId)}`), {
    method: "PATCH",
    body,
  });
}

export function deleteWebhook(workspaceId: string, endpointId: string): Promise<WebhookEndpointDeleted> {
  return api<WebhookEndpointDeleted>(v1(workspaceId, `/webhooks/${encodeURIComponent(endpointId)}`), {
    method: "DELETE",
  });
}

export function redeliver(workspaceId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
  return api<WebhookDelivery>(
    v1(
      workspaceId,
      `/webhooks/${encodeURIComponent(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
    ),
    { method: "POST" },
  );
}
