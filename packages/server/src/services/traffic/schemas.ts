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

export const TrafficPagesQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        maxLength: 40,
        description: "Start (ISO 8601), its UTC day included; 30 days before `to` by default.",
      }),
    ),
    to: Type.Optional(
      Type.String({ maxLength: 40, description: "End (ISO 8601), exclusive at midnight; now by default." }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    page: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 1, description: "Which page of `limit` pages, from 1." }),
    ),
  },
  { additionalProperties: false },
);

const Count = Type.Integer({ minimum: 0 });

export const TrafficPagesSchema = component(
  "TrafficPages",
  Type.Object(
    {
      object: Type.Literal("traffic_pages"),
      project_id: Type.String(),
      from: Day,
      to: Day,
      total: Type.Integer({
        minimum: 0,
        description: "Pages in the join; `data` holds page `page` of them, `limit` at a time.",
      }),
      data: Type.Array(
        Type.Object(
          {
            path: Type.String({ description: "The page's path, without its query; the same on every brand domain." }),
            crawls: Type.Object(
              {
                total: Count,
                verified: Count,
                errors: Type.Integer({ minimum: 0, description: "Hits answered with a 4xx or 5xx status." }),
                last_at: Nullable(Timestamp),
                by_bot: Type.Array(Type.Object({ bot: Type.String(), hits: Count }, { additionalProperties: false })),
              },
              { additionalProperties: false },
            ),
            citations: Type.Object(
              {
                total: Count,
                by_engine: Type.Array(
                  Type.Object({ engine: Type.String(), citations: Count }, { additionalProperties: false }),
                ),
              },
              { additionalProperties: false },
            ),
            referrals: Type.Object(
              {
                total: Count,
                by_engine: Type.Array(
                  Type.Object({ engine: Type.String(), visits: Count }, { additionalProperties: false }),
                ),
              },
              { additionalProperties: false },
            ),
            crawled_not_cited: Type.Boolean(),
            cited_not_crawled: Type.Boolean(),
            cited_and_visited: Type.Boolean(),
          },
          { additionalProperties: false },
        ),
      ),
    },
    {
      additionalProperties: false,
      description:
        "The brand's pages joined page by page: AI bot crawls (from its logs), citations by engine (from its measured answers) and AI-referred visits, most cited first.",
    },
  ),
);
