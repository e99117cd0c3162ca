import Type from "typebox";
import { component, Nullable, StringEnum } from "../../lib/schema.ts";
import { CATEGORY_VERSION, CITATION_CATEGORIES } from "./citation-category.ts";

/**
 * What the measurement reads out of an answer and how it aggregates answers. Stored with each
 * result (`results.measure`) and shown in results, analyses and reports: one shape for all three.
 */

const BrandMeasureFields = {
  name: Type.String(),
  mentioned: Type.Boolean(),
  position: Nullable(
    Type.Integer({ minimum: 1, description: "Rank among the tracked brands named (list order in lists)." }),
  ),
  mentions: Type.Integer({ minimum: 0, description: "Times its names appear." }),
  // Optional: results measured before score version 2 were stored without it.
  confidence: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 1,
      description: "How sure the rules are that the brand is meant, at its best occurrence (0 when never named).",
    }),
  ),
};

export const BrandMeasureSchema = Type.Object(BrandMeasureFields, { additionalProperties: false });

export const OwnBrandMeasureSchema = Type.Object(
  {
    ...BrandMeasureFields,
    sentiment: Nullable(Type.Number({ minimum: -1, maximum: 1 })),
    // Optional for the same reason as `confidence`.
    stance: Type.Optional(
      Type.Unsafe<"recommended" | "mentioned" | "warned" | null>({
        type: ["string", "null"],
        enum: ["recommended", "mentioned", "warned", null],
        description:
          "Whether the answer recommends the brand, warns against it, or only names it; null when not named.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const CitationFoundSchema = Type.Object(
  {
    url: Type.String(),
    domain: Type.String(),
    title: Nullable(Type.String()),
    brand: Type.Boolean({ description: "On one of the brand's domains." }),
    competitor: Nullable(Type.String({ description: "The competitor whose domain it is on." })),
    // Optional: results measured before citation categories were stored without it; readers derive it.
    category: Type.Optional(
      StringEnum(CITATION_CATEGORIES, {
        description: `What kind of source it is (classifier version ${CATEGORY_VERSION}): the brand's own, a competitor's, social/UGC, reference, news/editorial, review/marketplace, or other.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const CitationSourceSchema = StringEnum(["engine", "text", "none"] as const, {
  description: "Whether the engine gave structured sources, or links were read from the text.",
});

/** One answer, measured: what is stored in `results.measure`. */
export const AnswerMeasureSchema = Type.Object(
  {
    brand: OwnBrandMeasureSchema,
    competitors: Type.Array(BrandMeasureSchema),
    citations: Type.Array(CitationFoundSchema),
    citation_source: CitationSourceSchema,
    brand_cited: Type.Boolean(),
    score: Type.Number({ minimum: 0, maximum: 100 }),
    score_version: Type.String(),
  },
  { additionalProperties: false },
);

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
