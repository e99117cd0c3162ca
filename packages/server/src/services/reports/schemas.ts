import Type from "typebox";
import { component, Dictionary, ListOf, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { AnalysisSummarySchema } from "../analyses/schemas.ts";
import { GLOSSARY } from "../glossary/metrics.ts";
import { SummarySchema } from "../measurement/schemas.ts";
import { FiredAlertSchema } from "../monitoring/schemas.ts";
import { PageQuery } from "../schemas.ts";

/** Of one analysis, of one monitoring run, or a brand's week. */
export const REPORT_TYPES = ["analysis", "monitoring_run", "weekly_digest"] as const;

const reportFields = {
  id: Type.String({ description: "Prefixed `rpt_`." }),
  object: Type.Literal("report"),
  type: StringEnum(REPORT_TYPES, { description: "Of one analysis, of one monitoring run, or a brand's week." }),
  project_id: Type.String(),
  title: Type.String(),
  period: Type.Object({ start: Timestamp, end: Timestamp }, { additionalProperties: false }),
  analysis_id: Nullable(Type.String()),
  run_id: Nullable(Type.String()),
  schedule_id: Nullable(Type.String()),
  created_at: Timestamp,
};

export const ReportSummarySchema = component(
  "ReportListItem",
  Type.Object(reportFields, {
    additionalProperties: false,
    description: "A report, without its data (read it singly).",
  }),
);

export const HistoryPointSchema = Type.Object(
  {
    at: Timestamp,
    analysis_id: Type.String(),
    visibility: Nullable(Type.Number()),
    share_of_voice: Nullable(Type.Number()),
    average_position: Nullable(Type.Number()),
    visibility_score: Nullable(Type.Number()),
    by_engine: Dictionary(Nullable(Type.Number())),
  },
  { additionalProperties: false },
);

export const ResultRowSchema = Type.Object(
  {
    id: Type.String(),
    created_at: Timestamp,
    engine: Type.String(),
    model: Nullable(Type.String()),
    prompt: Type.String(),
    sample: Type.Integer(),
    status: Type.String(),
    mentioned: Type.Boolean(),
    position: Nullable(Type.Integer()),
    sentiment: Nullable(Type.Number()),
    brand_cited: Type.Boolean(),
    score: Nullable(Type.Number()),
    cited_domains: Type.Array(Type.String()),
    competitors_mentioned: Type.Array(Type.String()),
    // Optional: reports generated before citation categories were stored without it.
    cited_domain_categories: Type.Optional(
      Type.Array(Type.String(), { description: "The category of each of `cited_domains`, in the same order." }),
    ),
    // Optional: reports generated before query fan-out was stored without it.
    searches: Type.Optional(Type.Array(Type.String(), { description: "The web searches the engine ran." })),
  },
  { additionalProperties: false },
);

const day = (description: string) => Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description });
const Count = Type.Integer({ minimum: 0 });

/** The brand's AI traffic in a report's days (issue 26), frozen with the report as its other figures are. */
export const ReportTrafficSchema = Type.Object(
  {
    from: day("The first UTC day counted (YYYY-MM-DD)."),
    to: day("The first UTC day no longer counted (YYYY-MM-DD)."),
    totals: Type.Object(
      {
        bot_hits: Count,
        verified: Count,
        spoofed: Count,
        unverifiable: Count,
        referrals: Type.Integer({ minimum: 0, description: "Visits referred by AI engines." }),
      },
      { additionalProperties: false },
    ),
    bots: Type.Array(
      Type.Object(
        {
          bot: Type.String(),
          operator: Type.String(),
          hits: Count,
          verified: Count,
          spoofed: Count,
          unverifiable: Count,
        },
        { additionalProperties: false },
      ),
      { description: "The bots with the most hits (at most 10), most first." },
    ),
    engines: Type.Array(Type.Object({ engine: Type.String(), visits: Count }, { additionalProperties: false }), {
      description: "Visits referred per engine, most first.",
    }),
    blocked: Type.Array(
      Type.Object(
        {
          bot: Type.String(),
          operator: Type.String(),
          domain: Type.String({ description: "The brand domain whose robots.txt blocks it." }),
          robots_url: Nullable(Type.String()),
          robots_status: Nullable(Type.Integer()),
          line: Nullable(
            Type.Integer({ minimum: 1, description: "The blocking rule's line; null when a 5xx blocks every bot." }),
          ),
          rule: Nullable(Type.String({ description: "The rule as written: `Disallow: /`." })),
          group: Nullable(Type.String({ description: "The `User-agent` of the group that blocks it." })),
          engines: Type.Array(Type.String(), { description: "The engines the brand tracks that the bot feeds." }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          "The AI bots robots.txt blocks from every page of a brand domain, as the latest access audit before the report found them.",
      },
    ),
  },
  {
    additionalProperties: false,
    description:
      "The brand's AI traffic over the report's UTC days (at least the 7 ending with its last), from its access logs and GA4: AI crawler hits by verification, the top bots, referred visits per engine, and the bots robots.txt blocks. Absent when there was none of it and no bot was blocked, and on reports generated before issue 26.",
  },
);

const effectWords = GLOSSARY.experiment_effect;
const Share = (description: string) => Nullable(Type.Number({ minimum: -1, maximum: 1, description }));

/**
 * One of the brand's finished experiments (issue 27) in a report: the change and its effect on
 * visibility as `GET /v1/projects/:id/changes/:change_id` gives them (`visibility.overall`),
 * frozen with the report as its other figures are.
 */
export const ReportExperimentSchema = component(
  "ReportExperiment",
  Type.Object(
    {
      id: Type.String({
        description: "The change's id (`chg_`): read every figure with `GET /v1/projects/:id/changes/:change_id`.",
      }),
      title: Type.String({ description: "What was done, in a line." }),
      changed_at: Type.String({ format: "date-time", description: "When the change took effect." }),
      result_at: Type.String({
        format: "date-time",
        description: "When the result was ready; the answers read stop there.",
      }),
      status: StringEnum(["result", "inconclusive", "not_called"] as const, {
        description: `How the result was called. ${effectWords.significance}`,
      }),
      summary: Type.String({ description: "The result in a sentence, as the result card says it." }),
      effect: Share(
        `${effectWords.name} on visibility, as a fraction (0.12 is +12 pts); null without enough data. ${effectWords.counts}`,
      ),
      ci_low: Share(`Lower bound: ${effectWords.interval}`),
      ci_high: Share(`Upper bound: ${effectWords.interval}`),
      p_value: Nullable(Type.Number({ minimum: 0, maximum: 1, description: "Welch's t test's two-sided p-value." })),
      treated_prompts: Type.Integer({ minimum: 0, description: "Treated prompts answered on both sides." }),
      control_prompts: Type.Integer({ minimum: 0, description: "Control prompts answered on both sides." }),
      answers: Type.Integer({ minimum: 0, description: "The answers the effect rests on." }),
      pre_trend_diverging: Nullable(
        Type.Boolean({
          description:
            "Whether the treated and control prompts were already drifting apart before the change (p < 0.05: the result is not called); null without enough answers before it to check.",
        }),
      ),
      engines: Type.Array(Type.String(), { description: "The engines measured." }),
    },
    {
      additionalProperties: false,
      description: `A change the brand made, measured as an experiment, and its ${effectWords.name.toLowerCase()} on visibility: ${effectWords.hint.charAt(0).toLowerCase()}${effectWords.hint.slice(1)}`,
    },
  ),
);

const ReportExperimentsSchema = Type.Array(ReportExperimentSchema, {
  description:
    "The brand's experiments whose result was ready by the end of the report's period, the most recent result first (at most 10). Absent when it had none, and on reports generated before issue 27.",
});

const RateOf = (what: string) =>
  Type.Object(
    {
      value: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
      n: Type.Integer({ minimum: 0 }),
      count: Type.Integer({ minimum: 0 }),
      ci_low: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
      ci_high: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    },
    { additionalProperties: false, description: `${what}: count ÷ n with its Wilson 95% interval.` },
  );

/** A conversation script's figures per engine in a report (issue 29), frozen with the report. */
export const ReportConversationSchema = component(
  "ReportConversation",
  Type.Object(
    {
      script_id: Type.String(),
      script_name: Type.String(),
      turns: Type.Integer({ minimum: 1 }),
      engines: Type.Array(
        Type.Object(
          {
            engine: Type.String(),
            conversations: Type.Integer({ minimum: 0, description: "Conversations ended in the period." }),
            entered: RateOf("Conversations in which the brand was named at some turn"),
            survived: RateOf("Conversations whose last answer names the brand"),
            dropped: RateOf("Conversations in which it was named, then gone for good"),
            entry_turn_median: Nullable(Type.Number()),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

const AudienceGroups = Type.Array(
  Type.Object(
    {
      label: Type.String(),
      answers: Type.Integer({ minimum: 0 }),
      visibility: RateOf("Visibility"),
      against_all: StringEnum(["below", "above", "overlap"] as const),
    },
    { additionalProperties: false },
  ),
);

export const ReportAudiencesSchema = component(
  "ReportAudiences",
  Type.Object(
    { by_persona: AudienceGroups, by_country: AudienceGroups },
    {
      additionalProperties: false,
      description:
        "The brand's visibility per persona and per country in the period (issue 29). Absent when the answers were asked under at most one of each, and on reports generated before issue 29.",
    },
  ),
);

/** Fields every report has in the API, and the stored data of reports before 2026-11-24 lacks. */
const answerFields = {
  result_count: Type.Integer({ minimum: 0, description: "The answers the report covers." }),
  analysis_ids: Type.Array(Type.String(), {
    description:
      "The analyses whose answers the report covers: read them with `GET /v1/results?analysis_id=…`, or all at once with `format=csv`. Empty on weekly digests generated before 2026-11-24 (their answers are in `results`).",
  }),
  cited_kinds: Dictionary(Type.Integer({ minimum: 0 }), {
    description: "Cited sites by kind (owned, competitor, social, …): each answer's cited domains counted once.",
  }),
};

const reportDataFields = {
  project: Type.Object(
    {
      id: Type.String(),
      name: Type.String(),
      primary_domain: Type.String(),
      competitors: Type.Array(Type.String()),
    },
    { additionalProperties: false },
  ),
  source: Type.Object(
    {
      analysis_id: Nullable(Type.String()),
      run_id: Nullable(Type.String()),
      schedule_id: Nullable(Type.String()),
    },
    { additionalProperties: false },
  ),
  summary: AnalysisSummarySchema,
  history: Type.Array(HistoryPointSchema, {
    description: "Earlier analyses of the same kind, oldest first, this one last.",
  }),
  alerts: Type.Array(FiredAlertSchema),
  // Optional: reports generated before 2026-11-26 have no comparison and no opportunities.
  previous: Type.Optional(
    Nullable(
      Type.Object(
        {
          start: Timestamp,
          end: Timestamp,
          overall: SummarySchema,
          by_engine: Dictionary(SummarySchema),
        },
        {
          additionalProperties: false,
          description:
            "The period before, for period-over-period figures: the previous analysis of the same kind (run, schedule), or the week before a weekly digest. Null when there was none.",
        },
      ),
    ),
  ),
  opportunities: Type.Optional(
    Type.Array(
      Type.Object(
        {
          kind: Type.String(),
          title: Type.String(),
          explanation: Type.String(),
          impact: Type.Number({ minimum: 0, maximum: 1 }),
          answers: Type.Integer({ minimum: 1 }),
          engines: Type.Array(Type.String()),
        },
        { additionalProperties: false },
      ),
      {
        description:
          "The three biggest opportunities the report's answers support, by impact, with the figures they rest on (a report stores figures, not answers: their ids are in `GET /v1/projects/:id/opportunities`).",
      },
    ),
  ),
  traffic: Type.Optional(ReportTrafficSchema),
  experiments: Type.Optional(ReportExperimentsSchema),
  conversations: Type.Optional(
    Type.Array(ReportConversationSchema, {
      description:
        "The brand's conversation scripts with conversations ended in the period: where the brand enters and drops out, per engine. Absent when none ended, and on reports generated before issue 29.",
    }),
  ),
  audiences: Type.Optional(ReportAudiencesSchema),
  // Reports generated before 2026-11-24 embedded every answer; newer ones reference their analyses,
  // so that a report's size does not grow with its answers (a weekly digest of many runs).
  results: Type.Optional(
    Type.Array(ResultRowSchema, {
      description:
        "Only on reports generated before 2026-11-24, which embedded every answer. Newer reports do not: read their answers with `format=csv` (streamed, every answer) or `GET /v1/results?analysis_id=…`.",
    }),
  ),
};

/** What a report holds, frozen when it is generated, as the API shows it. */
const ReportDataSchema = Type.Object(
  { ...reportDataFields, ...answerFields },
  {
    additionalProperties: false,
    description: "Frozen when the report was generated; recomputed from stored counts.",
  },
);

/** What is stored: reports before 2026-11-24 lack the answer fields (read through `reportData`). */
export const StoredReportDataSchema = Type.Object(
  {
    ...reportDataFields,
    result_count: Type.Optional(answerFields.result_count),
    analysis_ids: Type.Optional(answerFields.analysis_ids),
    cited_kinds: Type.Optional(answerFields.cited_kinds),
  },
  { additionalProperties: false },
);

export const ReportSchema = component(
  "Report",
  Type.Object(
    {
      ...reportFields,
      data: ReportDataSchema,
    },
    { additionalProperties: false },
  ),
);

export const ReportListSchema = ListOf("ReportList", ReportSummarySchema);

export const ReportListQuery = Type.Object(
  {
    ...PageQuery,
    project_id: Type.Optional(Type.String({ maxLength: 100 })),
    type: Type.Optional(StringEnum(REPORT_TYPES)),
    from: Type.Optional(Type.String({ maxLength: 40, description: "Generated at or after (ISO 8601)." })),
    to: Type.Optional(Type.String({ maxLength: 40, description: "Generated before (ISO 8601): [from, to)." })),
  },
  { additionalProperties: false },
);

export const ReportQuery = Type.Object(
  {
    format: Type.Optional(
      StringEnum(["json", "csv", "html", "pdf"] as const, {
        description:
          "`json` (default); `csv`: the results table; `html`: a printable page with charts; `pdf`: the same page as an A4 PDF.",
      }),
    ),
  },
  { additionalProperties: false },
);

/** The longest a shared link may live, in days. */
const MAX_SHARE_DAYS = 365;

export const ReportShareSchema = component(
  "ReportShare",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `rsh_`." }),
      object: Type.Literal("report_share"),
      report_id: Type.String(),
      url: Nullable(
        Type.String({
          description:
            "Opens the report's page without an account: signed with the server's secret key, read-only, that report only. `null` to callers who cannot create links (a key without the `reports` scope, the viewer role): a link opens the report to anyone who holds it.",
        }),
      ),
      expires_at: Timestamp,
      revoked_at: Nullable(Timestamp),
      active: Type.Boolean({ description: "Neither expired nor revoked: the link opens the report." }),
      created_at: Timestamp,
    },
    { additionalProperties: false },
  ),
);

export const ReportShareListSchema = ListOf("ReportShareList", ReportShareSchema);

export const CreateReportShareBody = component(
  "ReportShareCreate",
  Type.Object(
    {
      expires_in_days: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_SHARE_DAYS,
          description: `Days the link opens the report, 1 to ${MAX_SHARE_DAYS}; 30 when left out.`,
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const ReportShareParams = Type.Object(
  {
    id: Type.String({ maxLength: 100, description: "The report's id." }),
    share_id: Type.String({ maxLength: 100, description: "The share's id." }),
  },
  { additionalProperties: false },
);
