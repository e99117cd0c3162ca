import Type from "typebox";
import { component, Nullable, Patterned, Timestamp } from "../../lib/schema.ts";

/** Request and response shapes of a brand's GA4 connection (issue 26). The key is never in a response. */

const Day = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "A day, YYYY-MM-DD." });

export const Ga4ConnectBody = component(
  "TrafficGa4Connect",
  Type.Object(
    {
      property_id: Patterned(
        "^(properties/)?[0-9]{1,20}$",
        "must be a GA4 property id: its digits (Admin → Property details), or properties/<digits>",
        { maxLength: 40, description: "The GA4 property's numeric id (`properties/123` is accepted too)." },
      ),
      service_account_key: Type.Object(
        {
          type: Type.Optional(Type.Literal("service_account", { description: "As in the key file Google gives." })),
          client_email: Type.String({
            format: "email",
            maxLength: 320,
            description: "The service account's e-mail; add it as a Viewer of the property.",
          }),
          private_key: Type.String({
            minLength: 1,
            maxLength: 16_384,
            description: "The RSA private key, PEM (`-----BEGIN PRIVATE KEY-----…`).",
          }),
          private_key_id: Type.Optional(Type.String({ maxLength: 200 })),
          token_uri: Type.Optional(
            Type.String({
              maxLength: 2_000,
              description: "Where tokens are asked for; https://oauth2.googleapis.com/token when left out.",
            }),
          ),
        },
        {
          additionalProperties: true,
          maxProperties: 30,
          description:
            "The service account's JSON key file, as Google gives it (its other fields are ignored). Stored encrypted; never answered back.",
        },
      ),
    },
    { additionalProperties: false },
  ),
);

export const Ga4ConnectionSchema = component(
  "TrafficGa4Connection",
  Type.Object(
    {
      object: Type.Literal("traffic_ga4_connection"),
      project_id: Type.String(),
      property_id: Type.String({ description: "The GA4 property's numeric id." }),
      client_email: Type.String({ description: "The service account's e-mail: the only part of its key shown." }),
      created_at: Timestamp,
      updated_at: Timestamp,
      last_synced_at: Nullable(Timestamp),
      last_error: Nullable(Type.String({ description: "Why the last sync failed; null once one succeeds." })),
    },
    {
      additionalProperties: false,
      description: "A brand's GA4 property and the service account Sightline reads it with. The key is never answered.",
    },
  ),
);

export const Ga4DeletedSchema = component(
  "TrafficGa4ConnectionDeleted",
  Type.Object(
    { object: Type.Literal("traffic_ga4_connection"), project_id: Type.String(), deleted: Type.Literal(true) },
    { additionalProperties: false },
  ),
);

export const Ga4SyncBody = component(
  "TrafficGa4SyncRequest",
  Type.Object(
    {
      days: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 90, default: 30, description: "How many days, today included." }),
      ),
    },
    { additionalProperties: false },
  ),
);

const Count = Type.Integer({ minimum: 0 });

export const Ga4SyncSchema = component(
  "TrafficGa4Sync",
  Type.Object(
    {
      object: Type.Literal("traffic_ga4_sync"),
      project_id: Type.String(),
      property_id: Type.String(),
      from: Day,
      to: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "The first day no longer synced." }),
      rows: Type.Integer({ minimum: 0, description: "Report rows Google answered." }),
      referrals: Type.Integer({ minimum: 0, description: "AI-referred sessions counted." }),
      ignored: Type.Integer({
        minimum: 0,
        description: "Sessions from sources that looked like an AI engine's but map to none.",
      }),
      engines: Type.Array(Type.Object({ engine: Type.String(), visits: Count }, { additionalProperties: false }), {
        description: "Sessions counted per engine, most first.",
      }),
      synced_at: Timestamp,
    },
    {
      additionalProperties: false,
      description:
        "What a GA4 sync counted: the days it read replace what earlier syncs counted for them, so syncing again never counts twice.",
    },
  ),
);
