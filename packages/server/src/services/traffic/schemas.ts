import Type from "typebox";
import { component, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { BOTS } from "./bots.ts";

const Verification = StringEnum(["verified", "spoofed", "unverifiable"] as const, {
  description:
    "verified: the address is in the bot's published ranges; spoofed: it claims the bot from outside them; unverifiable: the bot's operator publishes no ranges (or none are loaded).",
});

const Day = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "A UTC day, YYYY-MM-DD." });

export const TrafficQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ maxLength: 40, description: "First UTC day included (YYYY-MM-DD)." })),
    to: Type.Optional(Type.String({ maxLength: 40, description: "First UTC day no longer included (YYYY-MM-DD)." })),
    engine: Type.Optional(
      Type.String({
        maxLength: 40,
        description: "Only this engine: the visits it referred, and the hits of the bots that feed it.",
      }),
    ),
    bot: Type.Optional(
      StringEnum(
        BOTS.map((bot) => bot.name),
        { description: "Only this bot's hits." },
      ),
    ),
    verified: Type.Optional(
      Type.Boolean({ description: "true: only verified hits; false: only spoofed and unverifiable ones." }),
    ),
  },
  { additionalProperties: false },
);

export const TrafficSchema = component(
  "Traffic",
  Type.Object(
    {
      object: Type.Literal("traffic"),
      project_id: Type.String(),
      from: Nullable(Day),
      to: Nullable(Day),
      totals: Type.Object(
        {
          bot_hits: Type.Integer({ minimum: 0 }),
          verified: Type.Integer({ minimum: 0 }),
          spoofed: Type.Integer({ minimum: 0 }),
          unverifiable: Type.Integer({ minimum: 0 }),
          referrals: Type.Integer({ minimum: 0, description: "Visits referred by AI engines." }),
        },
        { additionalProperties: false },
      ),
      bots: Type.Array(
        Type.Object(
          {
            bot: Type.String(),
            operator: Type.String(),
            verification: Verification,
            hits: Type.Integer({ minimum: 0 }),
            last_at: Timestamp,
          },
          { additionalProperties: false },
        ),
        { description: "Hits per bot and verification, most first." },
      ),
      engines: Type.Array(
        Type.Object({ engine: Type.String(), visits: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
        { description: "Visits referred per engine, most first." },
      ),
      days: Type.Array(
        Type.Object(
          { day: Day, bot_hits: Type.Integer({ minimum: 0 }), referrals: Type.Integer({ minimum: 0 }) },
          { additionalProperties: false },
        ),
        { description: "Per UTC day with any traffic, oldest first." },
      ),
    },
    {
      additionalProperties: false,
      description:
        "A brand's AI traffic from its own access logs: AI bot hits (verified against the bots' published ranges) and visits referred by AI engines. No visitor's address or user agent is kept.",
    },
  ),
);
