import Type from "typebox";
import { ANALYSIS_LIMITS } from "../../../services/analyses/types.ts";
import { component, EngineList, ListOf, Nullable, PageQuery, PromptList, StringEnum, Timestamp } from "../../schema.ts";

const Ratio = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 1, description }));

export const ProportionSchema = component(
  "Proportion",
  Type.Object(
    {
      value: Ratio("count ÷ n; null when n is 0."),
      n: Type.Integer({ minimum: 0, description: "Answers counted." }),
      count: Type.Integer({ minimum: 0, description: "Answers that qualify." }),
      ci_low: Ratio("Lower bound of the Wilson 95% interval."),
      ci_high: Ratio("Upper bound of the Wilson 95% interval."),
    },
    { additionalProperties: false },
  ),
);

export const SummarySchema = component(
  "Summary",
  Type.Object(
    {
      answers: Type.Integer({ minimum: 0, description: "Successful answers aggregated." }),
      visibility: ProportionSchema,
      share_of_voice: Ratio("Answers naming the brand ÷ answers naming the brand or a competitor, counted per brand."),
      average_position: Nullable(Type.Number({ description: "Mean rank of the brand where it is named (1 = first)." })),
      sentiment_score: Nullable(
        Type.Number({ minimum: 0, maximum: 100, description: "(mean sentiment / 2 + 0.5) × 100." }),
      ),
      citation_rate: Ratio("Answers citing a brand domain ÷ answers citing anything."),
      citation_share: Ratio("Citations of brand domains ÷ all citations."),
      citations: Type.Integer({ minimum: 0 }),
      brand_citations: Type.Integer({ minimum: 0 }),
      visibility_score: Nullable(
        Type.Number({ minimum: 0, maximum: 100, description: "Mean of the answers' visibility scores." }),
      ),
      top_cited_domains: Type.Array(
        Type.Object(
          { domain: Type.String(), citations: Type.Integer({ minimum: 0 }), brand: Type.Boolean() },
          { additionalProperties: false },
        ),
      ),
      competitors: Type.Array(
        Type.Object(
          {
            name: Type.String(),
            visibility: Ratio("Answers naming the competitor ÷ answers."),
            mentioned: Type.Integer({ minimum: 0 }),
            share_of_voice: Ratio("The competitor's share of all tracked-brand mentions."),
            average_position: Nullable(Type.Number()),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false, description: "Aggregates over a set of answers (DESIGN.md §3)." },
  ),
);

export const AnalysisSummarySchema = component(
  "AnalysisSummary",
  Type.Object(
    {
      overall: SummarySchema,
      by_engine: Type.Object({}, { additionalProperties: SummarySchema }),
      by_prompt: Type.Array(
        Type.Object({ prompt: Type.String(), summary: SummarySchema }, { additionalProperties: false }),
      ),
    },
    { additionalProperties: false, description: "Aggregates overall, per engine and per prompt." },
  ),
);

export const AnalysisSchema = component(
  "Analysis",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `ana_`." }),
      object: Type.Literal("analysis"),
      project_id: Type.String(),
      status: StringEnum(["queued", "running", "completed", "failed"] as const, {
        description: "`completed` when at least one answer succeeded; `failed` when every answer failed.",
      }),
      trigger: StringEnum(["api", "monitoring", "dashboard", "cli"] as const),
      schedule_id: Nullable(Type.String({ description: "The monitoring schedule that ran it, if one did." })),
      engines: Type.Array(Type.String()),
      prompts: Type.Array(Type.String()),
      samples: Type.Integer({ minimum: 1 }),
      country: Nullable(Type.String()),
      language: Nullable(Type.String()),
      progress: Type.Object(
        {
          total: Type.Integer({ minimum: 0, description: "prompts × engines × samples." }),
          succeeded: Type.Integer({ minimum: 0 }),
          failed: Type.Integer({ minimum: 0 }),
          pending: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      credits: Type.Object(
        {
          reserved: Type.Integer({ minimum: 0, description: "Credits reserved when the analysis was queued." }),
          released: Type.Integer({ minimum: 0, description: "Credits given back for answers that failed." }),
        },
        { additionalProperties: false },
      ),
      errors: Type.Array(
        Type.Object(
          {
            engine: Type.String(),
            code: Type.Literal("ENGINE_FAILURE"),
            message: Type.String(),
            answers: Type.Integer({ minimum: 1, description: "How many of its answers failed." }),
          },
          { additionalProperties: false },
        ),
        { description: "Engines that failed, with why; their other answers, and other engines', are kept." },
      ),
      summary: Type.Union([AnalysisSummarySchema, Type.Null()], { description: "Null until the analysis finishes." }),
      score_version: Type.String({ description: "The visibility score formula's version (see the docs)." }),
      created_at: Timestamp,
      started_at: Nullable(Timestamp),
      completed_at: Nullable(Timestamp),
    },
    { additionalProperties: false, description: "A run of prompts × engines × samples for one brand." },
  ),
);

export const AnalyzeSchema = component(
  "AnalyzeRequest",
  Type.Object(
    {
      project_id: Type.String({ maxLength: 100, description: "The brand to analyse." }),
      engines: Type.Optional(EngineList("Engines to ask; the project's by default. Each must be in the plan.")),
      prompts: Type.Optional(PromptList("Prompts to ask; the project's tracked prompts by default.")),
      samples: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: ANALYSIS_LIMITS.samples,
          default: 1,
          description: "Times each prompt is asked of each engine.",
        }),
      ),
      country: Type.Optional(
        Nullable(
          Type.String({ minLength: 2, maxLength: 2, description: "ISO 3166-1 alpha-2; the project's by default." }),
        ),
      ),
      language: Type.Optional(
        Nullable(Type.String({ minLength: 1, maxLength: 35, description: "BCP 47; the project's by default." })),
      ),
    },
    {
      additionalProperties: false,
      description: `At most ${ANALYSIS_LIMITS.answers} answers (prompts × engines × samples); each costs one credit.`,
    },
  ),
);

export const AnalysisListSchema = ListOf("AnalysisList", AnalysisSchema);

export const AnalysisListQuery = Type.Object(
  {
    ...PageQuery,
    project_id: Type.Optional(Type.String({ maxLength: 100, description: "Only this brand's analyses." })),
    status: Type.Optional(StringEnum(["queued", "running", "completed", "failed"] as const)),
  },
  { additionalProperties: false },
);
