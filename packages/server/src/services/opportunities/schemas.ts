import Type from "typebox";
import { component, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { GLOSSARY } from "../glossary/metrics.ts";
import { share, VisibilitySchema } from "../measurement/schemas.ts";

/** The answers opportunities are computed from: the last 30 days', the most recent 5,000 at most. */
export const OPPORTUNITY_WINDOW_DAYS = 30;
export const OPPORTUNITY_SCAN_LIMIT = 5_000;

const OPPORTUNITY_KINDS = [
  "wrong_facts",
  "negative_answers",
  "visibility_drop",
  "competitors_preferred",
  "citation_gap",
  "search_gap",
  "crawler_blocked",
  "crawler_errors",
] as const;

export const OpportunitiesQuery = Type.Object(
  {
    kind: Type.Optional(StringEnum(OPPORTUNITY_KINDS, { description: "Only opportunities of this kind." })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 20, description: "How many, the most valuable first." }),
    ),
  },
  { additionalProperties: false },
);

const OpportunitySchema = Type.Object(
  {
    id: Type.String({
      description: "Stable while the same evidence stands: `opp_` and a digest of its kind and subject.",
    }),
    kind: StringEnum(OPPORTUNITY_KINDS, {
      description:
        "`wrong_facts`: answers contradicting the fact sheet; `negative_answers`: answers warning against the brand; `visibility_drop`: a prompt and engine where visibility fell significantly; `competitors_preferred`: where competitors are named and the brand is not; `citation_gap`: a site cited where competitors are named and the brand is not; `search_gap`: searches engines ran whose answers never cite the brand's site; `crawler_blocked`: an AI bot feeding an engine the brand tracks that a brand domain's robots.txt blocks from every page (the access audit); `crawler_errors`: such a bot served errors (4xx, 5xx) on a good share of its requests in the last 7 days (the access logs).",
    }),
    title: Type.String({ description: "What to do, in one line." }),
    explanation: Type.String({ description: "Why, with the figures." }),
    impact: Type.Number({
      minimum: 0,
      maximum: 1,
      description: share("opportunity_impact", "It ranks the list."),
    }),
    answers: Type.Integer({
      minimum: 0,
      description:
        "Answers the opportunity rests on; for the crawler kinds, the period's answers of the engines the bot feeds (0 before any).",
    }),
    engines: Type.Array(Type.String(), { description: "The engines' ids; the title names them as people read them." }),
    prompts: Type.Array(Type.String()),
    domain: Nullable(
      Type.String({ description: "The cited site (`citation_gap`); the brand's domain (`crawler_blocked`)." }),
    ),
    urls: Type.Array(Type.String(), { description: "Its most cited pages (`citation_gap`), at most 3." }),
    search: Nullable(Type.String({ description: "The search engines ran (`search_gap`)." })),
    change: Nullable(
      Type.Object(
        {
          before: VisibilitySchema,
          after: VisibilitySchema,
          difference: Type.Number({
            description: `${GLOSSARY.visibility.name}: after − before, as a fraction (−0.4 is −40 pts).`,
          }),
          p_value: Type.Number({ minimum: 0, maximum: 1 }),
        },
        {
          additionalProperties: false,
          description: `${GLOSSARY.visibility.name} before and in the latest analysis. ${GLOSSARY.opportunity_impact.significance}`,
        },
      ),
    ),
    fact: Nullable(
      Type.Object(
        {
          field: StringEnum(["founded_year", "headquarters", "starting_price", "free_plan", "features"] as const),
          expected: Type.String({ description: "What the fact sheet says." }),
          stated: Type.String({ description: "What the answers say." }),
          excerpt: Type.String({ description: "The sentence of the most recent answer saying it." }),
        },
        { additionalProperties: false },
      ),
    ),
    crawler: Nullable(
      Type.Object(
        {
          bot: Type.String({ description: "The AI bot, as its user agent names it: `OAI-SearchBot`." }),
          operator: Type.String(),
          robots: Nullable(
            Type.Object(
              {
                url: Nullable(Type.String({ description: "The robots.txt read." })),
                status: Nullable(Type.Integer({ description: "The status it answered." })),
                line: Nullable(
                  Type.Integer({ minimum: 1, description: "The blocking rule's line; null when a 5xx blocks all." }),
                ),
                rule: Nullable(Type.String({ description: "The line as written: `Disallow: /`." })),
                user_agent: Nullable(Type.String({ description: "The `User-agent` of the group the bot follows." })),
              },
              { additionalProperties: false, description: "What blocks it (`crawler_blocked`)." },
            ),
          ),
          served: Nullable(
            Type.Object(
              {
                since: Type.String({ description: "The first UTC day counted (YYYY-MM-DD)." }),
                hits: Type.Integer({ minimum: 0, description: "Its requests (spoofed ones left out)." }),
                errors: Type.Integer({ minimum: 0, description: "Those answered with a 4xx or 5xx." }),
                pages: Type.Array(
                  Type.Object(
                    { path: Type.String(), status: Type.Integer(), hits: Type.Integer({ minimum: 0 }) },
                    { additionalProperties: false },
                  ),
                  { maxItems: 5, description: "The pages and statuses with the most errors." },
                ),
              },
              { additionalProperties: false, description: "What it was served (`crawler_errors`)." },
            ),
          ),
        },
        {
          additionalProperties: false,
          description: "The crawler kinds' evidence: the bot, and the robots.txt rule or the errors.",
        },
      ),
    ),
    evidence: Type.Array(Type.String(), {
      maxItems: 5,
      description:
        "Results it rests on (`GET /v1/results/:id`), most recent first, at most 5; none for the crawler kinds, whose evidence is `crawler`.",
    }),
  },
  { additionalProperties: false },
);

export const OpportunityListSchema = component(
  "Opportunities",
  Type.Object(
    {
      object: Type.Literal("opportunities"),
      from: Timestamp,
      to: Timestamp,
      computed_at: Timestamp,
      scanned: Type.Integer({
        minimum: 0,
        description: `Successful answers read: the last ${OPPORTUNITY_WINDOW_DAYS} days', the most recent ${OPPORTUNITY_SCAN_LIMIT} at most.`,
      }),
      data: Type.Array(OpportunitySchema, { description: "The most valuable first." }),
    },
    {
      additionalProperties: false,
      description:
        "What to do next, computed from the stored answers after every analysis, and from the access audit and access logs of the brand's domains: ranked, explained, with evidence.",
    },
  ),
);

/** What is stored per project: the whole list, filtered and cut on read. */
export const StoredOpportunitiesSchema = Type.Object(
  {
    from: Timestamp,
    to: Timestamp,
    scanned: Type.Integer({ minimum: 0 }),
    data: Type.Array(OpportunitySchema),
  },
  { additionalProperties: false },
);
