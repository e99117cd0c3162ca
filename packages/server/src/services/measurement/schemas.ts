import Type from "typebox";
import { component, Nullable, StringEnum } from "../../lib/schema.ts";
import { described, GLOSSARY, type MetricId } from "../glossary/metrics.ts";
import { CATEGORY_VERSION, CITATION_CATEGORIES } from "./citation-category.ts";

/**
 * What the measurement reads out of an answer and how it aggregates answers. Stored with each
 * result (`results.measure`) and shown in results, analyses and reports: one shape for all three.
 */

/** The API carries the glossary's percentages as fractions: said once, wherever one is described. */
const AS_FRACTION = "Carried as a fraction from 0 to 1 (0.47 is 47%).";

/**
 * A figure's description in the API reference, in the glossary's words (its name, hint, what it
 * counts and its scale), so that the reference says what the dashboard and the reports say.
 */
export function figure(id: MetricId, ...more: string[]): string {
  return [described(id), GLOSSARY[id].counts, GLOSSARY[id].scale, ...more].join(" ");
}

/** The same for a share, whose percent the API carries as a fraction (the glossary's scale is people's). */
export function share(id: MetricId, ...more: string[]): string {
  return [described(id), GLOSSARY[id].counts, AS_FRACTION, ...more].join(" ");
}

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
    sentiment: Nullable(
      Type.Number({
        minimum: -1,
        maximum: 1,
        description: `${described("sentiment")} This field is the classifier's polarity, −1 to +1, not the 0 to 100 scale people read. ${GLOSSARY.sentiment.counts} The 0 to 100 figure is \`sentiment_score\`. Null when the brand is not named.`,
      }),
    ),
    // Optional for the same reason as `confidence`.
    stance: Type.Optional(
      Type.Unsafe<"recommended" | "mentioned" | "warned" | null>({
        type: ["string", "null"],
        enum: ["recommended", "mentioned", "warned", null],
        description: `${described("stance")} Null when the brand is not named.`,
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
    score: Type.Number({ minimum: 0, maximum: 100, description: figure("visibility_score") }),
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

/**
 * A proportion the glossary names, as a component of its own: a `$ref` takes no description of
 * its own in the generated reference, so the figure's words go on the component, and its n and
 * interval are said in that figure's terms. The same shape as `Proportion`.
 */
function proportionOf(name: string, id: MetricId) {
  const d = GLOSSARY[id];
  return component(
    name,
    Type.Object(
      {
        value: Ratio(`count ÷ n; null when n is 0. ${AS_FRACTION}`),
        n: Type.Integer({ minimum: 0, description: d.n }),
        count: Type.Integer({
          minimum: 0,
          description: `Of the n, those ${d.name.toLowerCase()} counts: count ÷ n is its value.`,
        }),
        ci_low: Ratio(`Lower bound of the interval: ${d.interval}`),
        ci_high: Ratio(`Upper bound of the interval: ${d.interval}`),
      },
      { additionalProperties: false, description: share(id, d.significance) },
    ),
  );
}

export const VisibilitySchema = proportionOf("Visibility", "visibility");
export const CitationRateSchema = proportionOf("CitationRate", "citation_rate");

/** A competitor's figure, counted as the brand's. */
const OF_COMPETITOR = "Here the competitor's, counted as the brand's.";

export const SummarySchema = component(
  "Summary",
  Type.Object(
    {
      answers: Type.Integer({ minimum: 0, description: "Successful answers aggregated." }),
      visibility: VisibilitySchema,
      share_of_voice: Ratio(share("share_of_voice")),
      average_position: Nullable(Type.Number({ description: figure("average_position") })),
      sentiment_score: Nullable(Type.Number({ minimum: 0, maximum: 100, description: figure("sentiment") })),
      citation_rate: Ratio(share("citation_rate", `Its n: ${GLOSSARY.citation_rate.n.toLowerCase()}`)),
      citation_share: Ratio(share("citation_share", "`brand_citations` ÷ `citations`.")),
      citations: Type.Integer({
        minimum: 0,
        description: `Every citation in the answers: the n of ${GLOSSARY.citation_share.name.toLowerCase()}.`,
      }),
      brand_citations: Type.Integer({
        minimum: 0,
        description: `Citations of the brand's domains: the count of ${GLOSSARY.citation_share.name.toLowerCase()}.`,
      }),
      visibility_score: Nullable(Type.Number({ minimum: 0, maximum: 100, description: figure("visibility_score") })),
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
            visibility: Ratio(share("visibility", OF_COMPETITOR)),
            mentioned: Type.Integer({ minimum: 0, description: "Answers naming the competitor." }),
            share_of_voice: Ratio(share("share_of_voice", OF_COMPETITOR)),
            average_position: Nullable(Type.Number({ description: figure("average_position", OF_COMPETITOR) })),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false, description: "Aggregates over a set of answers (DESIGN.md §3)." },
  ),
);
