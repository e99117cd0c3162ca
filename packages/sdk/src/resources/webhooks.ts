import type { Sightline } from "../client.ts";
import type { ListWebhookDeliveriesQuery, ListWebhooksQuery } from "../generated/operations.ts";
import type {
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointDeleted,
  WebhookEndpointList,
  WebhookEndpointUpdate,
  WebhookEndpointUpdated,
  WebhookEndpointWithSecret,
} from "../generated/schemas.ts";
import { paginate } from "../pagination.ts";

/** Webhook subscriptions: `sightline.webhooks`. */
export class Webhooks {
  constructor(private readonly client: Sightline) {}

  list(query: ListWebhooksQuery = {}): Promise<WebhookEndpointList> {
    return this.client.request("listWebhooks", { query });
  }

  listAll(query: Omit<ListWebhooksQuery, "cursor"> = {}): AsyncIterable<WebhookEndpoint> {
    return paginate((cursor) => this.list({ ...query, ...(cursor === undefined ? {} : { cursor }) }));
  }

  /**
   * Subscribes a URL. Store `secret` from the answer: it is never shown again.
   * @example const { id, secret } = await sightline.webhooks.create({ url: "https://example.com/hooks", events: ["analysis.completed"] });
   */
  create(body: WebhookEndpointCreate): Promise<WebhookEndpointWithSecret> {
    return this.client.request("createWebhook", { body });
  }

  retrieve(id: string): Promise<WebhookEndpoint> {
    return this.client.request("getWebhook", { params: { id } });
  }

  /** @example const { secret } = await sightline.webhooks.update("whk_…", { rotate_secret: true }); */
  update(id: string, body: WebhookEndpointUpdate): Promise<WebhookEndpointUpdated> {
    return this.client.request("updateWebhook", { params: { id }, body });
  }

  delete(id: string): Promise<WebhookEndpointDeleted> {
    return this.client.request("deleteWebhook", { params: { id } });
  }

  deliveries(id: string, query: ListWebhookDeliveriesQuery = {}): Promise<WebhookDeliveryList> {
    return this.client.request("listWebhookDeliveries", { params: { id }, query });
  }

  redeliver(id: string, deliveryId: string): Promise<WebhookDelivery> {
    return this.client.request("redeliverWebhook", { params: { id, delivery_id: deliveryId } });
  }
}
