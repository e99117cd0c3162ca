import Type, { type Static } from "typebox";
import { component } from "../../lib/schema.ts";

/** The dashboard's digest switch of one brand, for the signed-in member (docs/dashboard-api.md). */
export const DigestSubscriptionSchema = component(
  "DigestSubscription",
  Type.Object(
    {
      project_id: Type.String(),
      subscribed: Type.Boolean({ description: "Whether the member gets the brand's weekly e-mail digest." }),
      email_delivery: Type.Boolean({ description: "Whether the server can send e-mail (SMTP_URL)." }),
    },
    { additionalProperties: false },
  ),
);

export type DigestSubscription = Static<typeof DigestSubscriptionSchema>;

export const DigestParams = Type.Object(
  { workspace: Type.String({ maxLength: 100 }), project_id: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);

export const DigestChangeSchema = Type.Object({ subscribed: Type.Boolean() }, { additionalProperties: false });
