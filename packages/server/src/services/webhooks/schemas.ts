import Type from "typebox";
import { component, ListOf, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { EVENT_TYPES } from "../events/types.ts";
import { PageQuery } from "../schemas.ts";

const EventTypes = Type.Array(StringEnum(EVENT_TYPES), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  description: `Event kinds to receive: ${EVENT_TYPES.join(", ")}.`,
});
const Url = Type.String({
  minLength: 1,
  maxLength: 2_048,
  description: "Where deliveries are POSTed: http(s) on a public address.",
});
const Description = Nullable(Type.String({ maxLength: 500, description: "A note for your own use." }));

const endpointFields = {
  id: Type.String({ description: "Prefixed `whk_`." }),
  object: Type.Literal("webhook_endpoint"),
  url: Type.String(),
  description: Nullable(Type.String()),
  events: Type.Array(StringEnum(EVENT_TYPES)),
  active: Type.Boolean({ description: "Inactive subscriptions receive nothing." }),
  disabled_reason: Nullable(
    Type.String({ description: "Set when Sightline turned the subscription off (the receiver answered 410 Gone)." }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
};

const SecretField = Type.String({
  description: "The signing secret (`whsec_…`). Shown only here: store it now; it cannot be read again.",
});

export const WebhookEndpointSchema = component(
  "WebhookEndpoint",
  Type.Object(endpointFields, {
    additionalProperties: false,
    description: "A webhook subscription (never with its secret).",
  }),
);

export const WebhookEndpointWithSecretSchema = component(
  "WebhookEndpointWithSecret",
  Type.Object({ ...endpointFields, secret: SecretField }, { additionalProperties: false }),
);

export const WebhookEndpointUpdatedSchema = component(
  "WebhookEndpointUpdated",
  Type.Object(
    { ...endpointFields, secret: Type.Optional(SecretField) },
    {
      additionalProperties: false,
      description: "The subscription after the change; `secret` only after `rotate_secret`.",
    },
  ),
);

export const WebhookEndpointCreateSchema = component(
  "WebhookEndpointCreate",
  Type.Object(
    {
      url: Url,
      events: EventTypes,
      description: Type.Optional(Description),
      active: Type.Optional(Type.Boolean({ default: true })),
    },
    { additionalProperties: false },
  ),
);

export const WebhookEndpointUpdateSchema = component(
  "WebhookEndpointUpdate",
  Type.Object(
    {
      url: Type.Optional(Url),
      events: Type.Optional(EventTypes),
      description: Type.Optional(Description),
      active: Type.Optional(Type.Boolean({ description: "`true` also clears `disabled_reason`." })),
      rotate_secret: Type.Optional(
        Type.Boolean({ description: "`true` replaces the secret at once and returns the new one in `secret`." }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const WebhookEndpointDeletedSchema = component(
  "WebhookEndpointDeleted",
  Type.Object(
    { id: Type.String(), object: Type.Literal("webhook_endpoint"), deleted: Type.Literal(true) },
    { additionalProperties: false },
  ),
);

export const WebhookEndpointListSchema = ListOf("WebhookEndpointList", WebhookEndpointSchema);

const AttemptSchema = component(
  "WebhookAttempt",
  Type.Object(
    {
      attempt: Type.Integer({ minimum: 1 }),
      status_code: Nullable(Type.Integer({ description: "The receiver's HTTP status; null if none came back." })),
      latency_ms: Type.Integer({ minimum: 0 }),
      response_excerpt: Nullable(Type.String({ description: "The first kilobyte of the response body." })),
      error: Nullable(Type.String({ description: "Why the attempt failed, if it did." })),
      created_at: Timestamp,
    },
    { additionalProperties: false },
  ),
);

export const WebhookDeliverySchema = component(
  "WebhookDelivery",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `whd_`." }),
      object: Type.Literal("webhook_delivery"),
      endpoint_id: Type.String(),
      event_id: Type.String({ description: "Sent as `X-Webhook-Id`; the same on every attempt." }),
      event_type: StringEnum(EVENT_TYPES),
      status: StringEnum(["pending", "succeeded", "failed", "canceled"] as const, {
        description: "`pending` while attempts remain; `failed` after the last one or a 410.",
      }),
      attempt_count: Type.Integer({ minimum: 0 }),
      next_attempt_at: Nullable(Timestamp),
      delivered_at: Nullable(Timestamp),
      attempts: Type.Array(AttemptSchema),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { additionalProperties: false, description: "One event sent to one subscription, with every attempt." },
  ),
);

export const WebhookDeliveryListSchema = ListOf("WebhookDeliveryList", WebhookDeliverySchema);

export const ListQuery = Type.Object(PageQuery, { additionalProperties: false });

export const DeliveryParams = Type.Object(
  {
    id: Type.String({ maxLength: 100, description: "The subscription's id." }),
    delivery_id: Type.String({ maxLength: 100, description: "The delivery's id." }),
  },
  { additionalProperties: false },
);
