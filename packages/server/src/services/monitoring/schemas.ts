import Type, { type TSchema } from "typebox";
import { component, ListOf, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { AnalysisSummarySchema, EngineFailuresSchema } from "../analyses/schemas.ts";
import { ANALYSIS_LIMITS, MAX_ALERT_RULES } from "../limits.ts";
import { EngineList, EngineName, PageQuery, PromptList } from "../schemas.ts";
import { CostSchema } from "../usage/schemas.ts";

/** The days a weekly schedule can run on. */
export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

export const ScheduleSpecSchema = component(
  "ScheduleSpec",
  Type.Object(
    {
      every: Type.Optional(
        StringEnum(["hour", "day", "week"] as const, { description: "A simple schedule; or give `cron`." }),
      ),
      at: Type.Optional(
        Type.String({
          pattern: "^([01]\\d|2[0-3]):[0-5]\\d$",
          description: "Time of day for `day` and `week`, HH:MM (00:00 by default).",
        }),
      ),
      weekday: Type.Optional(StringEnum(WEEKDAYS, { description: "Day for `week` (monday by default)." })),
      cron: Type.Optional(
        Type.String({ maxLength: 100, description: "Five-field cron expression, at most hourly, e.g. `0 9 * * 1-5`." }),
      ),
    },
    {
      additionalProperties: false,
      description: "When runs happen, in the schedule's `timezone`: `{every}` or `{cron}`.",
    },
  ),
);

const RULE_TYPES = [
  "visibility_below",
  "visibility_drop",
  "competitor_overtakes",
  "brand_disappeared",
  "sentiment_below",
  "domain_not_cited",
  "crawls_drop",
  "referrals_drop",
  "crawler_blocked",
  "experiment_result",
] as const;

/** The most e-mail addresses one alert rule sends to. */
const MAX_ALERT_EMAILS = 20;

/** Where a rule's alerts go besides webhooks: as sent, and as shown (the Slack URL masked). */
export const AlertChannelsSchema = component(
  "AlertChannels",
  Type.Object(
    {
      email: Type.Optional(
        Type.Array(Type.String({ format: "email", maxLength: 254 }), {
          maxItems: MAX_ALERT_EMAILS,
          description: `Addresses to e-mail each alert to (at most ${MAX_ALERT_EMAILS}); needs SMTP on the server (\`SMTP_URL\`).`,
        }),
      ),
      slack: Type.Optional(
        Type.String({
          maxLength: 2048,
          description:
            "A Slack incoming-webhook URL (or any Slack-compatible one), https, on a public address. It is a secret: stored encrypted and shown masked (`https://hooks.slack.com/services/T…/…abcd`); send the masked value back unchanged to keep the URL.",
        }),
      ),
    },
    {
      additionalProperties: false,
      description:
        "Where the rule's alerts are sent besides the webhooks subscribed to `alert.triggered` (which always receive them). Absent: webhooks only.",
    },
  ),
);

const ruleFields = {
  type: StringEnum(RULE_TYPES, {
    description:
      "`visibility_below` (threshold 0–1), `visibility_drop` (points, statistically real unless `require_significance` is false), `competitor_overtakes` (competitor), `brand_disappeared`, `sentiment_below` (threshold 0–100), `domain_not_cited`; from the brand's traffic (extensions): `crawls_drop` and `referrals_drop` (threshold: the percent AI bots' crawls or AI-referred visits fell over the last 7 days against the 7 before, from at least 20), `crawler_blocked` (robots.txt blocks an AI bot that feeds an engine the schedule asks); from the brand's experiments (extension): `experiment_result` (a change's result became ready in this run: result, inconclusive or not called).",
  }),
  threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  points: Type.Optional(
    Type.Number({ exclusiveMinimum: 0, maximum: 100, description: "Percentage points of visibility." }),
  ),
  require_significance: Type.Optional(
    Type.Boolean({ description: "Fire only when the two runs' 95% intervals do not overlap (default true)." }),
  ),
  competitor: Type.Optional(Type.String({ maxLength: 200 })),
  engines: Type.Optional(
    Type.Array(EngineName, {
      maxItems: 32,
      description: "Judge each of these engines on its own; all engines together when absent.",
    }),
  ),
  channels: Type.Optional(AlertChannelsSchema),
};

export const AlertRuleInputSchema = component(
  "AlertRuleInput",
  Type.Object(ruleFields, {
    additionalProperties: false,
    description: "A condition checked after each run; it fires when it starts to hold.",
  }),
);

const AlertRuleSchema = component(
  "AlertRule",
  Type.Object({ id: Type.String({ description: "rule_1, rule_2…" }), ...ruleFields }, { additionalProperties: false }),
);

const ChangeMetric = Type.Object(
  { current: Nullable(Type.Number()), previous: Nullable(Type.Number()), delta: Nullable(Type.Number()) },
  { additionalProperties: false },
);

/** How a finished run's answers went: stored with the run, shown in it (a run "completed with failures"). */
export const RunFailuresSchema = component(
  "RunFailures",
  Type.Object(
    {
      failed: Type.Integer({ minimum: 0, description: "How many of the run's answers failed." }),
      total: Type.Integer({
        minimum: 0,
        description: "How many answers the run asked for (prompts × engines × samples).",
      }),
      errors: EngineFailuresSchema,
    },
    {
      additionalProperties: false,
      description:
        "Addition to the spec. A `completed` run with `failed` > 0 completed with failures: its figures stand on the answers that succeeded.",
    },
  ),
);

/** A run against the schedule's previous completed run: stored with the run, shown in it. */
export const RunChangeSchema = Type.Object(
  {
    previous_run_id: Type.String(),
    visibility: Type.Object(
      {
        current: Nullable(Type.Number()),
        previous: Nullable(Type.Number()),
        delta: Nullable(Type.Number()),
        significant: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    share_of_voice: ChangeMetric,
    average_position: ChangeMetric,
    sentiment_score: ChangeMetric,
    citation_rate: ChangeMetric,
    visibility_score: ChangeMetric,
  },
  { additionalProperties: false, description: "Against the schedule's previous completed run." },
);

export const MonitoringRunSchema = component(
  "MonitoringRun",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `run_`." }),
      object: Type.Literal("monitoring_run"),
      schedule_id: Type.String(),
      project_id: Type.String(),
      slot: Nullable(Timestamp),
      status: StringEnum(["queued", "running", "completed", "failed", "skipped"] as const),
      skip_reason: Nullable(
        Type.String({ description: "Why a slot did not run (credits exhausted, engine no longer in the plan…)." }),
      ),
      analysis_id: Nullable(Type.String()),
      summary: Type.Union([AnalysisSummarySchema, Type.Null()]),
      change: Nullable(RunChangeSchema),
      cost: Type.Union([CostSchema, Type.Null()], {
        description:
          "What the run's answers cost (ADR 0029); null until it finishes, and for runs finished before costs were kept.",
      }),
      failures: Type.Union([RunFailuresSchema, Type.Null()], {
        description:
          "How many of its answers failed, and why; null until it finishes, for a skipped run, and for runs finished before this was kept.",
      }),
      created_at: Timestamp,
      completed_at: Nullable(Timestamp),
    },
    { additionalProperties: false },
  ),
);

export const ScheduleSchema = component(
  "MonitoringSchedule",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `mon_`." }),
      object: Type.Literal("monitoring_schedule"),
      project_id: Type.String(),
      engines: Nullable(Type.Array(Type.String(), { description: "Null: the project's engines at each run." })),
      prompts: Nullable(
        Type.Array(Type.String(), {
          description: "Null: the project's prompts at each run. Paused prompts (`paused_prompts`) are never asked.",
        }),
      ),
      samples: Type.Integer({ minimum: 1 }),
      schedule: ScheduleSpecSchema,
      timezone: Type.String(),
      alert_rules: Type.Array(AlertRuleSchema),
      active: Type.Boolean(),
      batch: Type.Boolean({
        description:
          "Send each run's answers to the vendors' batch APIs where an engine has one (`chatgpt`: OpenAI Batch, `claude`: Anthropic Message Batches, `gemini`: Gemini batch mode): about half the price of tokens, answers within the vendor's 24-hour window, so a run completes hours later instead of minutes. Other engines are asked live. False by default.",
      }),
      next_run_at: Nullable(Timestamp),
      last_run: Nullable(MonitoringRunSchema),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { additionalProperties: false, description: "A recurring analysis of a brand." },
  ),
);

const common = {
  engines: Type.Optional(Nullable(EngineList("Engines each run asks; null: the project's at the time of the run."))),
  prompts: Type.Optional(
    Nullable(
      PromptList(
        "Prompts each run asks; null: the project's at the time of the run. Paused prompts (`paused_prompts`) are never asked.",
      ),
    ),
  ),
  samples: Type.Optional(Type.Integer({ minimum: 1, maximum: ANALYSIS_LIMITS.samples })),
  timezone: Type.Optional(
    Type.String({ maxLength: 64, description: "IANA time zone of the schedule (UTC by default)." }),
  ),
  alert_rules: Type.Optional(Type.Array(AlertRuleInputSchema, { maxItems: MAX_ALERT_RULES })),
  active: Type.Optional(Type.Boolean()),
  batch: Type.Optional(
    Type.Boolean({
      description:
        "Send each run's answers to the vendors' batch APIs where an engine has one (`chatgpt`: OpenAI Batch, `claude`: Anthropic Message Batches, `gemini`: Gemini batch mode): about half the price of tokens, answers within the vendor's 24-hour window, so a run completes hours later instead of minutes. Other engines are asked live. False by default.",
    }),
  ),
};

export const ScheduleCreateSchema = component(
  "MonitoringScheduleCreate",
  Type.Object(
    { project_id: Type.String({ maxLength: 100 }), schedule: ScheduleSpecSchema, ...common },
    { additionalProperties: false },
  ),
);

export const ScheduleUpdateSchema = component(
  "MonitoringScheduleUpdate",
  Type.Object(
    { schedule: Type.Optional(ScheduleSpecSchema), ...common },
    { additionalProperties: false, description: "Fields to change." },
  ),
);

export const ScheduleDeletedSchema = component(
  "MonitoringScheduleDeleted",
  Type.Object(
    { id: Type.String(), object: Type.Literal("monitoring_schedule"), deleted: Type.Literal(true) },
    { additionalProperties: false },
  ),
);

const firedAlertFields = {
  id: Type.String({ description: "Prefixed `alt_`." }),
  object: Type.Literal("alert"),
  project_id: Type.String(),
  schedule_id: Type.String(),
  run_id: Type.String(),
  rule: AlertRuleSchema,
  engine: Nullable(Type.String({ description: "The engine judged, or null for all engines together." })),
  observed: Nullable(Type.Number()),
  previous: Nullable(Type.Number()),
  message: Type.String({ description: "What happened, in the words the rule is described with." }),
  created_at: Timestamp,
};

/** An alert as it fired, frozen into a report (which keeps no acknowledgement: that changes later). */
export const FiredAlertSchema = component(
  "FiredAlert",
  Type.Object(firedAlertFields, { additionalProperties: false, description: "An alert as it fired." }),
);

export const AlertSchema = component(
  "Alert",
  Type.Object(
    {
      ...firedAlertFields,
      status: StringEnum(["open", "acknowledged"] as const, {
        description:
          "Addition to the spec: `open` until a member acknowledges it (worked through), `acknowledged` after; reopening makes it `open` again.",
      }),
      acknowledged_at: Nullable(Timestamp),
      acknowledged_by: Nullable(
        Type.String({ description: "Who acknowledged it: a member's user id or an API key's id." }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const ScheduleListSchema = ListOf("MonitoringScheduleList", ScheduleSchema);
export const RunListSchema = ListOf("MonitoringRunList", MonitoringRunSchema);
export const AlertListSchema = ListOf("AlertList", AlertSchema);

export const ScheduleListQuery = Type.Object(
  {
    ...PageQuery,
    project_id: Type.Optional(Type.String({ maxLength: 100, description: "Only this brand's schedules." })),
  },
  { additionalProperties: false },
);
export const RunListQuery = Type.Object(PageQuery, { additionalProperties: false });
export const AlertListQuery = Type.Object(
  {
    ...PageQuery,
    project_id: Type.Optional(Type.String({ maxLength: 100 })),
    schedule_id: Type.Optional(Type.String({ maxLength: 100 })),
    status: Type.Optional(
      StringEnum(["open", "acknowledged"] as const, {
        description: "Only open alerts, or only acknowledged ones (addition to the spec).",
      }),
    ),
  },
  { additionalProperties: false },
);

/** A schedule as checked and stored: one of the simple forms, or a cron expression. */
export const StoredScheduleSpecSchema = Type.Union([
  Type.Object({ every: Type.Literal("hour") }, { additionalProperties: false }),
  Type.Object({ every: Type.Literal("day"), at: Type.Optional(Type.String()) }, { additionalProperties: false }),
  Type.Object(
    { every: Type.Literal("week"), at: Type.Optional(Type.String()), weekday: Type.Optional(StringEnum(WEEKDAYS)) },
    { additionalProperties: false },
  ),
  Type.Object({ cron: Type.String() }, { additionalProperties: false }),
]);

/** A rule's channels as stored: the Slack URL encrypted (SecretBox), with the masked form shown for it. */
export const StoredAlertChannelsSchema = Type.Object(
  {
    email: Type.Optional(Type.Array(Type.String())),
    slack: Type.Optional(
      Type.Object({ ciphertext: Type.String(), hint: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

const storedRuleBase = {
  /** Assigned by Sightline: `rule_1`, `rule_2`… in the order given. */
  id: Type.String(),
  /** Limit the rule to these engines, each judged on its own; all engines together when absent. */
  engines: Type.Optional(Type.Array(Type.String())),
  /** Absent: webhooks only. */
  channels: Type.Optional(StoredAlertChannelsSchema),
};

function storedRule<T extends (typeof RULE_TYPES)[number], P extends Record<string, TSchema>>(type: T, fields: P) {
  return Type.Object({ ...storedRuleBase, type: Type.Literal(type), ...fields }, { additionalProperties: false });
}

/** An alert rule as checked and stored: each type with exactly the fields it takes. */
export const StoredAlertRuleSchema = Type.Union([
  storedRule("visibility_below", { threshold: Type.Number() }),
  storedRule("visibility_drop", { points: Type.Number(), require_significance: Type.Optional(Type.Boolean()) }),
  storedRule("competitor_overtakes", { competitor: Type.String() }),
  storedRule("brand_disappeared", {}),
  storedRule("sentiment_below", { threshold: Type.Number() }),
  storedRule("domain_not_cited", {}),
  storedRule("crawls_drop", { threshold: Type.Number() }),
  storedRule("referrals_drop", { threshold: Type.Number() }),
  storedRule("crawler_blocked", {}),
  storedRule("experiment_result", {}),
]);
