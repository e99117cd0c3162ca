import Type from "typebox";
import { component, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { SCOPES } from "./scopes.ts";

/** API keys as the dashboard's Settings shows them: never their value, but once at creation. */
const keyFields = {
  id: Type.String(),
  name: Type.String(),
  start: Type.String({ description: "The key's first characters, to recognise it." }),
  scopes: Type.Array(StringEnum(SCOPES)),
  status: StringEnum(["active", "revoked", "expired"] as const),
  created_at: Timestamp,
  expires_at: Timestamp,
  last_used_at: Nullable(Timestamp),
  revoked_at: Nullable(Timestamp),
};

export const ApiKeySchema = component("ApiKey", Type.Object(keyFields, { additionalProperties: false }));

export const ApiKeyListSchema = Type.Object({ data: Type.Array(ApiKeySchema) }, { additionalProperties: false });

export const CreatedApiKeySchema = component(
  "CreatedApiKey",
  Type.Object(
    { ...keyFields, key: Type.String({ description: "The key itself: shown this once." }) },
    { additionalProperties: false },
  ),
);

export const CreateApiKeySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(Type.String({ maxLength: 20 }), { minItems: 1, maxItems: SCOPES.length }),
  },
  { additionalProperties: false },
);
