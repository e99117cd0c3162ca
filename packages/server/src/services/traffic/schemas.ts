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
      referrals_by_source: Type.Object(
        {
          logs: Type.Integer({ minimum: 0, description: "Referred visits in the imported access logs." }),
          ga4: Type.Integer({ minimum: 0, description: "AI-referred sessions read from the brand's GA4 property." }),
        },
        {
          additionalProperties: false,
          description:
            "Referred visits as each source counted them. Where both counted a day, page and engine, `referrals` takes the larger count, not the sum: the same visit is often in both.",
        },
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
        "A brand's AI traffic from its own access logs and its GA4 property: AI bot hits (verified against the bots' published ranges) and visits referred by AI engines. No visitor's address or user agent is kept.",
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

/** What an access audit says of one bot on one domain (issue 26). */
const ACCESS_VERDICTS = ["allowed", "partial", "blocked", "unknown"] as const;

const AccessVerdict = StringEnum(ACCESS_VERDICTS, {
  description:
    "What robots.txt lets the bot do: `blocked` every page, some (`partial`), or none (`allowed`); `unknown` when robots.txt could not be read (`error` says why). A robots.txt answering 404 (or another 4xx) allows everything, one answering a 5xx blocks everything (RFC 9309 §2.3.1).",
});

const AccessRule = Type.Object(
  {
    line: Type.Integer({ minimum: 1, description: "Its line in robots.txt, from 1." }),
    text: Type.String({ description: "The line as written, without its comment: `Disallow: /`." }),
  },
  { additionalProperties: false, description: "The rule that decides the verdict; null when none does." },
);

const AccessBotFields = {
  bot: Type.String(),
  verdict: AccessVerdict,
  reason: Type.String({ description: "The verdict in words, with the rule or the status that decides it." }),
  group: Nullable(
    Type.String({
      description:
        "The `User-agent` of the group the bot follows, as written: its own, else `*`; null when robots.txt has neither.",
    }),
  ),
  rule: Nullable(AccessRule),
};

/** What `traffic_access_checks.verdicts` holds: the robots.txt and llms.txt read, and a verdict per bot. */
export const StoredAccessVerdictsSchema = Type.Object(
  {
    robots_url: Nullable(Type.String()),
    /** Whether robots.txt answered 2xx with rules, not a web page. */
    robots_found: Type.Boolean(),
    llms_url: Nullable(Type.String()),
    /** Whether llms.txt answered 2xx with text, not a web page. */
    llms_present: Type.Boolean(),
    bots: Type.Array(Type.Object(AccessBotFields, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const TrafficAccessSchema = component(
  "TrafficAccess",
  Type.Object(
    {
      object: Type.Literal("traffic_access"),
      project_id: Type.String(),
      checked_at: Nullable(Timestamp),
      recent_from: Type.String({
        pattern: "^\\d{4}-\\d{2}-\\d{2}$",
        description: "The first UTC day counted in each bot's `recent` (the last 7 days, today included).",
      }),
      domains: Type.Array(
        Type.Object(
          {
            domain: Type.String(),
            checked_at: Timestamp,
            error: Nullable(
              Type.String({ description: "Why robots.txt could not be read; the verdicts are `unknown`." }),
            ),
            robots_txt: Type.Object(
              {
                url: Nullable(Type.String({ description: "The address read, after redirects." })),
                status: Nullable(Type.Integer({ description: "The status it answered; null when it did not answer." })),
                found: Type.Boolean({ description: "Whether it answered 2xx with rules (not a web page)." }),
              },
              { additionalProperties: false },
            ),
            llms_txt: Type.Object(
              {
                url: Nullable(Type.String()),
                present: Type.Boolean({ description: "Whether /llms.txt answered 2xx with text (not a web page)." }),
                status: Nullable(Type.Integer({ description: "The status it answered; null when it was not read." })),
              },
              { additionalProperties: false },
            ),
            bots: Type.Array(
              Type.Object(
                {
                  ...AccessBotFields,
                  operator: Type.String(),
                  purpose: StringEnum(["search", "fetch", "training", "index"] as const, {
                    description:
                      "search: indexes for the engine's answers; fetch: reads a page a person asked for; training: model data; index: a search engine's crawler that AI answers read.",
                  }),
                  engines: Type.Array(Type.String(), { description: "The engines it feeds." }),
                  tracked: Type.Boolean({ description: "Whether it feeds an engine the brand tracks." }),
                  recent: Type.Object(
                    {
                      hits: Count,
                      errors: Type.Integer({ minimum: 0, description: "Hits answered with a 4xx or 5xx." }),
                      statuses: Type.Array(
                        Type.Object({ status: Type.Integer(), hits: Count }, { additionalProperties: false }),
                        { description: "Hits per status served, most first; 0 when the log did not say." },
                      ),
                      last_at: Nullable(Timestamp),
                    },
                    {
                      additionalProperties: false,
                      description:
                        "What the bot was served on this domain lately, from the brand's access logs; spoofed hits (from outside the bot's ranges) are not the bot and are left out.",
                    },
                  ),
                },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        { description: "The primary domain first, then the others." },
      ),
    },
    {
      additionalProperties: false,
      description:
        "A brand's domains as the AI bots find them: each domain's robots.txt read per bot (allowed, blocked, partially blocked, with the rule that decides), whether it has an llms.txt, and the statuses each bot was served lately. Re-checked daily.",
    },
  ),
);
