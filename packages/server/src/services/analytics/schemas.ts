import Type from "typebox";
import { component, Dictionary, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { GLOSSARY, type MetricId } from "../glossary/metrics.ts";
import { CATEGORY_VERSION, CITATION_CATEGORIES } from "../measurement/citation-category.ts";
import { CitationRateSchema, figure, share, VisibilitySchema } from "../measurement/schemas.ts";
import { TagQuery } from "../projects/schemas.ts";

/** The analytics API (docs/analytics-api.md): figures recomputed from stored counts. */

export const CountsSchema = component(
  "AnalyticsCounts",
  Type.Object(
    {
      answers: Type.Integer({ minimum: 0, description: "Successful answers." }),
      mentioned: Type.Integer({ minimum: 0, description: "Answers naming the subject." }),
      cited: Type.Integer({ minimum: 0, description: "Answers citing one of the subject's domains." }),
      with_citations: Type.Integer({ minimum: 0, description: "Answers citing anything." }),
      position_sum: Type.Integer({ minimum: 0 }),
      position_count: Type.Integer({ minimum: 0 }),
      sentiment_sum: Type.Number({
        description: `The answers' polarities (−1 to +1 each) added up; ${GLOSSARY.sentiment.name.toLowerCase()} on its 0 to 100 scale is 50 + 50 × sentiment_sum ÷ sentiment_count.`,
      }),
      sentiment_count: Type.Integer({ minimum: 0 }),
      citations: Type.Integer({ minimum: 0 }),
      brand_citations: Type.Integer({ minimum: 0 }),
      score_sum: Type.Number({
        minimum: 0,
        description: `The answers' ${GLOSSARY.visibility_score.name.toLowerCase()}s added up.`,
      }),
    },
    { additionalProperties: false, description: "What is stored, summed; every figure comes from these." },
  ),
);

const ShareOfVoice = (...more: string[]) =>
  Nullable(Type.Number({ minimum: 0, maximum: 1, description: share("share_of_voice", ...more) }));
const AveragePosition = (...more: string[]) =>
  Nullable(Type.Number({ description: figure("average_position", ...more) }));
/** A competitor's figure, counted as the brand's. */
const OF_COMPETITOR = "Here the competitor's, counted as the brand's.";

const FiguresSchema = component(
  "AnalyticsFigures",
  Type.Object(
    {
      visibility: VisibilitySchema,
      share_of_voice: ShareOfVoice(),
      average_position: AveragePosition(),
      sentiment_score: Nullable(Type.Number({ minimum: 0, maximum: 100, description: figure("sentiment") })),
      citation_rate: CitationRateSchema,
      visibility_score: Nullable(Type.Number({ minimum: 0, maximum: 100, description: figure("visibility_score") })),
    },
    { additionalProperties: false },
  ),
);

const CompetitorFiguresSchema = Type.Object(
  {
    name: Type.String(),
    mentioned: Type.Integer({ minimum: 0, description: "Answers naming the competitor." }),
    visibility: VisibilitySchema,
    share_of_voice: ShareOfVoice(OF_COMPETITOR),
    average_position: AveragePosition(OF_COMPETITOR),
  },
  { additionalProperties: false },
);

export const SliceSchema = component(
  "AnalyticsSlice",
  Type.Object(
    { counts: CountsSchema, figures: FiguresSchema, competitors: Type.Array(CompetitorFiguresSchema) },
    {
      additionalProperties: false,
      description: "A set of answers: the brand's counts and figures, and each competitor's.",
    },
  ),
);

const BySlice = { overall: SliceSchema, by_engine: Dictionary(SliceSchema) };

/** A figure against the period before, said with the glossary's rule for when a change is real. */
const Change = (id: MetricId) =>
  Type.Object(
    {
      current: Nullable(Type.Number()),
      previous: Nullable(Type.Number()),
      delta: Nullable(Type.Number({ description: "current − previous, in the figure's own unit." })),
      significant: Nullable(Type.Boolean({ description: "The two 95% intervals do not overlap (proportions only)." })),
    },
    {
      additionalProperties: false,
      description: `${GLOSSARY[id].name} in this period and the one before. ${GLOSSARY[id].significance}`,
    },
  );

export const ProjectMetricsSchema = component(
  "ProjectMetrics",
  Type.Object(
    {
      object: Type.Literal("project_metrics"),
      project_id: Type.String(),
      from: Timestamp,
      to: Timestamp,
      interval: StringEnum(["day", "week", "month"] as const),
      engines: Type.Array(Type.String(), { description: "Engines with answers in the period." }),
      total: Type.Object(BySlice, { additionalProperties: false }),
      series: Type.Array(
        Type.Object({ start: Timestamp, end: Timestamp, ...BySlice }, { additionalProperties: false }),
      ),
      previous: Type.Object({ from: Timestamp, to: Timestamp, overall: SliceSchema }, { additionalProperties: false }),
      changes: Type.Object(
        {
          visibility: Change("visibility"),
          share_of_voice: Change("share_of_voice"),
          average_position: Change("average_position"),
          sentiment_score: Change("sentiment"),
          citation_rate: Change("citation_rate"),
          visibility_score: Change("visibility_score"),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false, description: "A brand's figures over time, overall and per engine." },
  ),
);

export const PromptMetricsSchema = component(
  "PromptMetrics",
  Type.Object(
    {
      object: Type.Literal("prompt_metrics"),
      from: Timestamp,
      to: Timestamp,
      data: Type.Array(
        Type.Object(
          { prompt: Type.String(), engine: Type.String(), counts: CountsSchema, figures: FiguresSchema },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

const SourceKind = StringEnum(["brand", "competitor", "other"] as const);
const SourceCategory = StringEnum(CITATION_CATEGORIES, {
  description: `What kind of source (classifier version ${CATEGORY_VERSION}, with the project's own categories).`,
});
const count = Type.Integer({ minimum: 0 });

export const ProjectSourcesSchema = component(
  "ProjectSources",
  Type.Object(
    {
      object: Type.Literal("project_sources"),
      from: Timestamp,
      to: Timestamp,
      totals: Type.Object(
        {
          citations: Type.Integer({ minimum: 0 }),
          brand: Type.Integer({ minimum: 0 }),
          competitor: Type.Integer({ minimum: 0 }),
          other: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      categories: Type.Object(
        {
          owned: count,
          competitor: count,
          social: count,
          reference: count,
          news: count,
          review: count,
          other: count,
        },
        {
          additionalProperties: false,
          description: "Citations in the period per category, whatever the `category` filter.",
        },
      ),
      domains: Type.Array(
        Type.Object(
          {
            domain: Type.String(),
            kind: SourceKind,
            category: SourceCategory,
            competitor: Nullable(Type.String()),
            citations: Type.Integer({ minimum: 0 }),
            answers: Type.Integer({ minimum: 0 }),
            previous_citations: Type.Integer({ minimum: 0 }),
            series: Type.Array(
              Type.Object(
                { start: Timestamp, citations: Type.Integer({ minimum: 0 }) },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
      ),
      urls: Type.Array(
        Type.Object(
          {
            url: Type.String(),
            domain: Type.String(),
            kind: SourceKind,
            category: SourceCategory,
            competitor: Nullable(Type.String()),
            citations: Type.Integer({ minimum: 0 }),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

const StandingFields = {
  visibility: VisibilitySchema,
  share_of_voice: ShareOfVoice(),
  average_position: AveragePosition(),
};

export const LeaderboardSchema = component(
  "CompetitorLeaderboard",
  Type.Object(
    {
      object: Type.Literal("competitor_leaderboard"),
      from: Timestamp,
      to: Timestamp,
      previous: Type.Object({ from: Timestamp, to: Timestamp }, { additionalProperties: false }),
      data: Type.Array(
        Type.Object(
          {
            name: Type.String(),
            is_brand: Type.Boolean(),
            mentioned: Type.Integer({ minimum: 0 }),
            ...StandingFields,
            previous: Type.Object(StandingFields, { additionalProperties: false }),
            change: Type.Object(
              {
                visibility: Nullable(
                  Type.Number({ description: `${GLOSSARY.visibility.name}: current − previous, as a fraction.` }),
                ),
                share_of_voice: Nullable(
                  Type.Number({ description: `${GLOSSARY.share_of_voice.name}: current − previous, as a fraction.` }),
                ),
                average_position: Nullable(
                  Type.Number({
                    description: `${GLOSSARY.average_position.name}: current − previous, in ranks (lower is better).`,
                  }),
                ),
                significant: Type.Boolean({
                  description: `Whether the change of ${GLOSSARY.visibility.name.toLowerCase()} is statistically real. ${GLOSSARY.visibility.significance}`,
                }),
              },
              { additionalProperties: false },
            ),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

const periodQuery = {
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description: "Start (ISO 8601), its UTC day included; 30 days before `to` by default.",
    }),
  ),
  to: Type.Optional(
    Type.String({ maxLength: 40, description: "End (ISO 8601), exclusive at midnight; now by default." }),
  ),
  engine: Type.Optional(Type.String({ maxLength: 40, description: "Only this engine's answers." })),
  tag: Type.Optional(TagQuery),
};

export const MetricsQuery = Type.Object(
  {
    ...periodQuery,
    prompt: Type.Optional(Type.String({ maxLength: 2_000, description: "Only this prompt's answers." })),
    interval: Type.Optional(
      StringEnum(["day", "week", "month"] as const, { description: "Bucket size (UTC days, Monday weeks, months)." }),
    ),
  },
  { additionalProperties: false },
);

export const PromptMetricsQuery = Type.Object(periodQuery, { additionalProperties: false });

export const SourcesQuery = Type.Object(
  {
    ...periodQuery,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    category: Type.Optional(
      StringEnum(CITATION_CATEGORIES, { description: "Only domains and URLs of this category (totals stay whole)." }),
    ),
  },
  { additionalProperties: false },
);

export const LeaderboardQuery = Type.Object(periodQuery, { additionalProperties: false });

export const SearchesQuery = Type.Object(
  {
    ...periodQuery,
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 50, description: "How many searches (most run first)." }),
    ),
  },
  { additionalProperties: false },
);

export const ProjectSearchesSchema = component(
  "ProjectSearches",
  Type.Object(
    {
      object: Type.Literal("project_searches"),
      from: Timestamp,
      to: Timestamp,
      totals: Type.Object(
        {
          answers: Type.Integer({ minimum: 0, description: "Successful answers in the period." }),
          answers_with_searches: Type.Integer({ minimum: 0, description: "Those that reported searches." }),
          searches: Type.Integer({ minimum: 0, description: "Distinct searches (ignoring case)." }),
        },
        { additionalProperties: false },
      ),
      data: Type.Array(
        Type.Object(
          {
            search: Type.String({ description: "The search, in its most common spelling." }),
            answers: Type.Integer({ minimum: 1, description: "Answers that ran it (case and spacing ignored)." }),
            engines: Dictionary(Type.Integer({ minimum: 1 }), { description: "Answers that ran it, per engine." }),
            brand: Type.Boolean({ description: "Whether it names the brand (its name or an alias)." }),
            competitors: Type.Array(Type.String(), { description: "The competitors it names." }),
          },
          { additionalProperties: false },
        ),
        { description: "The most run searches first." },
      ),
    },
    {
      additionalProperties: false,
      description: "The web searches engines ran while answering the brand's prompts (query fan-out).",
    },
  ),
);
