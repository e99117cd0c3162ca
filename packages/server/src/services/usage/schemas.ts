import Type from "typebox";
import { component, Dictionary, Nullable, Timestamp } from "../../lib/schema.ts";
import { described, GLOSSARY } from "../glossary/metrics.ts";

const Counts = (description: string) => Dictionary(Type.Integer({ minimum: 0 }), { description });

const Tokens = (description: string) => Type.Integer({ minimum: 0, description });

const UsageFigures = {
  answers: Type.Integer({
    minimum: 0,
    description: "Answers received (failed requests cost nothing and are not counted).",
  }),
  input_tokens: Tokens("Input tokens the vendors reported (0 for SERP and scraping providers, which bill per search)."),
  output_tokens: Tokens("Output tokens the vendors reported, reasoning tokens included."),
  search_calls: Tokens("Billable searches: web-search tool calls, grounded queries, SERP searches, scraping tasks."),
};

/** What answers cost (ADR 0029): the vendor's own figure when it gives one, otherwise their usage priced from the price table. */
export const CostSchema = component(
  "Cost",
  Type.Object(
    {
      currency: Type.Literal("USD"),
      total: Type.Number({
        minimum: 0,
        description: `${GLOSSARY.cost.name} of these answers, to the millionth. ${GLOSSARY.cost.scale}`,
      }),
      ...UsageFigures,
      by_engine: Dictionary(
        Type.Object(
          {
            cost: Type.Number({
              minimum: 0,
              description: `${GLOSSARY.cost.name} of the engine's answers. ${GLOSSARY.cost.scale}`,
            }),
            ...UsageFigures,
          },
          { additionalProperties: false },
        ),
        { description: "The same, per engine (engines with no answer are left out)." },
      ),
    },
    {
      additionalProperties: false,
      description: `${described("cost")} ${GLOSSARY.cost.counts} When a vendor's response gives its own figure (Perplexity, DataForSEO), that figure is taken instead (docs/costs.md). Sightline's credits are separate.`,
    },
  ),
);

export const UsageSchema = component(
  "Usage",
  Type.Object(
    {
      object: Type.Literal("usage"),
      workspace_id: Type.String(),
      plan: Type.String({ description: "The workspace's plan." }),
      period: Type.Object(
        { start: Timestamp, end: Timestamp },
        {
          additionalProperties: false,
          description: "The current billing period, [start, end), anchored on the workspace's billing date.",
        },
      ),
      requests: Type.Object(
        {
          total: Type.Integer({ minimum: 0, description: "API requests this period, refused ones included." }),
          by_endpoint: Counts("Requests by endpoint, e.g. `GET /v1/projects`."),
        },
        {
          additionalProperties: false,
          description:
            "Request counts are written every second; the last second of other API processes may be missing.",
        },
      ),
      credits: Type.Object(
        {
          allowance: Type.Integer({ minimum: 0, description: "Credits the plan includes per period." }),
          used: Type.Integer({ minimum: 0, description: "Credits reserved or spent this period." }),
          remaining: Type.Integer({ minimum: 0 }),
          by_engine: Counts("Credits used by answers, by engine."),
          judge: Type.Integer({
            minimum: 0,
            description:
              "Credits used by calls to the judge engine (`SIGHTLINE_JUDGE_ENGINE`), one per call; included in `used`, not in `by_engine`.",
          }),
        },
        {
          additionalProperties: false,
          description:
            "One credit is one answer from one engine (one prompt × one engine × one sample), or one call to the judge.",
        },
      ),
      cost: Type.Object(
        {
          period: CostSchema,
          months: Type.Array(
            Type.Object({ start: Timestamp, end: Timestamp, cost: CostSchema }, { additionalProperties: false }),
            { description: "The last 12 billing periods, newest first, the current one included." },
          ),
        },
        {
          additionalProperties: false,
          description: `${GLOSSARY.cost.name} of the answers of analyses finished in a period: the current period (\`period\`) and the last 12 (\`months\`).`,
        },
      ),
      rate_limit: Type.Object(
        {
          enabled: Type.Boolean({ description: "False when the operator turned rate limits off." }),
          limit: Nullable(Type.Integer({ description: "Requests allowed per window." })),
          remaining: Nullable(Type.Integer({ description: "Requests left in the current window." })),
          reset: Nullable(Type.Integer({ description: "Unix time (seconds) at which the window resets." })),
          window_seconds: Nullable(Type.Integer()),
        },
        { additionalProperties: false, description: "The rate-limit window as of this request." },
      ),
    },
    { additionalProperties: false, description: "API usage for the current billing period." },
  ),
);

export const UsageQuery = Type.Object({}, { additionalProperties: false });
