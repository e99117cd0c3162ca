import Type from "typebox";
import { component, ListOf, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { GLOSSARY } from "../glossary/metrics.ts";
import { PROJECT_LIMITS } from "../limits.ts";
import {
  BrandMeasureSchema,
  CitationFoundSchema,
  CitationSourceSchema,
  figure,
  OwnBrandMeasureSchema,
} from "../measurement/schemas.ts";
import { PageQuery } from "../schemas.ts";

export const ResultSchema = component(
  "Result",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `res_`." }),
      object: Type.Literal("result"),
      analysis_id: Type.String(),
      project_id: Type.String(),
      engine: Type.String(),
      surface: StringEnum(["api", "web"] as const, {
        description:
          "`api`: asked through the vendor's model API; `web`: what a person sees in the product's own interface, captured through a SERP or scraping provider (DESIGN.md §6).",
      }),
      model: Nullable(Type.String({ description: "The model that answered, as the vendor reports it." })),
      prompt: Type.String(),
      sample: Type.Integer({ minimum: 1 }),
      persona_id: Nullable(
        Type.String({
          description: "The persona it was asked under (extension, issue 29); null: nobody in particular.",
        }),
      ),
      persona_version: Nullable(Type.Integer({ description: "The persona's version then." })),
      country: Nullable(Type.String({ description: "The country it was asked from; null: none." })),
      conversation_id: Nullable(
        Type.String({
          description: "For a turn of a conversation, its conversation (`cnv_`); null for a single answer.",
        }),
      ),
      turn: Nullable(
        Type.Integer({ minimum: 1, description: "Its turn in its conversation (1 = the opening question)." }),
      ),
      status: StringEnum(["succeeded", "failed"] as const),
      error: Nullable(
        Type.Object({ code: Type.Literal("ENGINE_FAILURE"), message: Type.String() }, { additionalProperties: false }),
      ),
      text: Nullable(Type.String({ description: "The answer as the engine gave it." })),
      citations: Type.Array(CitationFoundSchema),
      citation_source: CitationSourceSchema,
      brand: Nullable(OwnBrandMeasureSchema),
      competitors: Type.Array(BrandMeasureSchema),
      searches: Type.Array(Type.String(), {
        description:
          "The web searches the engine ran while answering, from its structured output (query fan-out), in order, without duplicates; empty when the engine reports none.",
      }),
      usage: Type.Union(
        [
          Type.Object(
            {
              input_tokens: Nullable(Type.Integer({ minimum: 0, description: "Null when the vendor reports none." })),
              output_tokens: Nullable(Type.Integer({ minimum: 0, description: "Reasoning tokens included." })),
              search_calls: Type.Integer({
                minimum: 0,
                description:
                  "Billable searches: web-search tool calls, grounded queries, SERP searches, scraping tasks.",
              }),
              cost: Type.Number({
                minimum: 0,
                description: `${GLOSSARY.cost.name} of this answer. ${GLOSSARY.cost.scale} The vendor's own figure when its response gives one, otherwise the usage priced from the price table (docs/costs.md).`,
              }),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        {
          description:
            "What the answer used and cost, as its vendor reported it (ADR 0029); null for failed answers (vendors bill no failure) and answers stored before costs were kept.",
        },
      ),
      brand_cited: Type.Boolean(),
      score: Nullable(
        Type.Number({ minimum: 0, maximum: 100, description: figure("visibility_score", "Null for failed answers.") }),
      ),
      score_version: Type.String(),
      attempts: Type.Integer({ minimum: 0 }),
      latency_ms: Type.Integer({ minimum: 0 }),
      created_at: Timestamp,
    },
    { additionalProperties: false, description: "One answer of one engine to one prompt, measured." },
  ),
);

export const ResultListSchema = ListOf("ResultList", ResultSchema);

export const ResultListQuery = Type.Object(
  {
    ...PageQuery,
    project_id: Type.Optional(Type.String({ maxLength: 100, description: "Only this brand's results." })),
    analysis_id: Type.Optional(Type.String({ maxLength: 100, description: "Only this analysis's results." })),
    engine: Type.Optional(Type.String({ maxLength: 40, description: "Only this engine's (must be in the plan)." })),
    from: Type.Optional(Type.String({ maxLength: 40, description: "Answers at or after this time (ISO 8601)." })),
    to: Type.Optional(Type.String({ maxLength: 40, description: "Answers before this time (ISO 8601): [from, to)." })),
    prompt: Type.Optional(
      Type.String({ maxLength: 2_000, description: "Only the answers to this prompt (its exact text)." }),
    ),
    tag: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: PROJECT_LIMITS.tagLength,
        description:
          "Only the answers to the prompts of `project_id` that carry this tag now (its `prompt_tags`, case ignored). Needs `project_id`.",
      }),
    ),
    mentioned: Type.Optional(
      Type.Boolean({ description: "Only the answers that name the brand (`true`) or do not (`false`)." }),
    ),
    status: Type.Optional(
      StringEnum(["succeeded", "failed"] as const, { description: "Only answers that succeeded, or failed." }),
    ),
    persona_id: Type.Optional(
      Type.String({
        maxLength: 40,
        description: "Only the answers asked under this persona; `none` for those under none.",
      }),
    ),
    country: Type.Optional(
      Type.String({
        maxLength: 4,
        description: "Only the answers asked from this country; `none` for those from none.",
      }),
    ),
    conversation_id: Type.Optional(Type.String({ maxLength: 40, description: "Only this conversation's turns." })),
  },
  { additionalProperties: false },
);
