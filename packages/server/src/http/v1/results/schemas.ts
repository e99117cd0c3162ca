import Type from "typebox";
import { component, ListOf, Nullable, PageQuery, StringEnum, Timestamp } from "../../schema.ts";

const BrandMeasureFields = {
  name: Type.String(),
  mentioned: Type.Boolean(),
  position: Nullable(
    Type.Integer({ minimum: 1, description: "Rank among the tracked brands named (list order in lists)." }),
  ),
  mentions: Type.Integer({ minimum: 0, description: "Times its names appear." }),
};

export const ResultSchema = component(
  "Result",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `res_`." }),
      object: Type.Literal("result"),
      analysis_id: Type.String(),
      project_id: Type.String(),
      engine: Type.String(),
      model: Nullable(Type.String({ description: "The model that answered, as the vendor reports it." })),
      prompt: Type.String(),
      sample: Type.Integer({ minimum: 1 }),
      status: StringEnum(["succeeded", "failed"] as const),
      error: Nullable(
        Type.Object({ code: Type.Literal("ENGINE_FAILURE"), message: Type.String() }, { additionalProperties: false }),
      ),
      text: Nullable(Type.String({ description: "The answer as the engine gave it." })),
      citations: Type.Array(
        Type.Object(
          {
            url: Type.String(),
            domain: Type.String(),
            title: Nullable(Type.String()),
            brand: Type.Boolean({ description: "On one of the brand's domains." }),
            competitor: Nullable(Type.String({ description: "The competitor whose domain it is on." })),
          },
          { additionalProperties: false },
        ),
      ),
      citation_source: StringEnum(["engine", "text", "none"] as const, {
        description: "Whether the engine gave structured sources, or links were read from the text.",
      }),
      brand: Nullable(
        Type.Object(
          { ...BrandMeasureFields, sentiment: Nullable(Type.Number({ minimum: -1, maximum: 1 })) },
          { additionalProperties: false },
        ),
      ),
      competitors: Type.Array(Type.Object(BrandMeasureFields, { additionalProperties: false })),
      brand_cited: Type.Boolean(),
      score: Nullable(Type.Number({ minimum: 0, maximum: 100, description: "The answer's visibility score." })),
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
  },
  { additionalProperties: false },
);
