import Type from "typebox";
import { component, Dictionary, ListOf, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { GLOSSARY } from "../glossary/metrics.ts";
import { ANALYSIS_LIMITS, MAX_WAIT_SECONDS } from "../limits.ts";
import { SummarySchema, VisibilitySchema } from "../measurement/schemas.ts";
import { EngineList, PageQuery, PromptList } from "../schemas.ts";
import { CostSchema } from "../usage/schemas.ts";

/** One product asked on its two surfaces in the same analysis: is what people see different from the API? */
const SurfaceComparisonSchema = component(
  "SurfaceComparison",
  Type.Object(
    {
      api_engine: Type.String({ description: "The engine asking the product's API (`chatgpt`)." }),
      web_engine: Type.String({ description: "The engine capturing its web interface (`chatgpt_web`)." }),
      api: VisibilitySchema,
      web: VisibilitySchema,
      difference: Nullable(
        Type.Number({
          minimum: -1,
          maximum: 1,
          description: `${GLOSSARY.visibility.name} on the web − ${GLOSSARY.visibility.name.toLowerCase()} on the API, as a fraction; null without answers.`,
        }),
      ),
      p_value: Nullable(
        Type.Number({
          minimum: 0,
          maximum: 1,
          description: "Two-sided pooled two-proportion z-test of the visibilities; null without answers.",
        }),
      ),
      significant: Type.Boolean({ description: "Whether the difference is statistically real (p < 0.05)." }),
    },
    { additionalProperties: false },
  ),
);

export const AnalysisSummarySchema = component(
  "AnalysisSummary",
  Type.Object(
    {
      overall: SummarySchema,
      by_engine: Dictionary(SummarySchema),
      by_prompt: Type.Array(
        Type.Object({ prompt: Type.String(), summary: SummarySchema }, { additionalProperties: false }),
      ),
      // Optional only in storage: summaries stored before surfaces existed are read with an empty list.
      surfaces: Type.Optional(
        Type.Array(SurfaceComparisonSchema, {
          description:
            "For each product the analysis asked on both surfaces (an `api` engine and its `web` counterpart, e.g. `chatgpt` and `chatgpt_web`): the brand's visibility on each and whether they differ beyond chance. Empty when no pair was asked.",
        }),
      ),
    },
    {
      additionalProperties: false,
      description: "Aggregates overall, per engine and per prompt, and the API-vs-web comparison.",
    },
  ),
);

/** Engines whose answers failed, with what their vendors said: stored with the analysis, shown in it. */
export const EngineFailuresSchema = Type.Array(
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
);

export const AnalysisSchema = component(
  "Analysis",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `ana_`." }),
      object: Type.Literal("analysis"),
      project_id: Type.String(),
      status: StringEnum(["queued", "running", "completed", "failed"] as const, {
        description:
          "`completed` when at least one answer succeeded; `failed` when every answer failed. A `completed` analysis with `progress.failed` > 0 completed with failures: `errors` says why, per engine, and its figures stand on the answers that succeeded.",
      }),
      trigger: StringEnum(["api", "monitoring", "dashboard", "cli"] as const),
      schedule_id: Nullable(Type.String({ description: "The monitoring schedule that ran it, if one did." })),
      engines: Type.Array(Type.String()),
      prompts: Type.Array(Type.String()),
      samples: Type.Integer({ minimum: 1 }),
      batch: Type.Boolean({
        description:
          "Whether its answers go to the vendors' batch APIs where an engine has one (a run of a monitoring schedule with `batch`): it then completes within the vendor's 24-hour window, at about half the price of tokens.",
      }),
      country: Nullable(Type.String()),
      countries: Type.Array(Type.String(), {
        description:
          "The countries each prompt was asked from (extension, issue 29); empty: `country` alone. An engine that cannot be placed in one is not asked there, and its answer says why.",
      }),
      personas: Type.Array(
        Type.Object({ id: Type.String(), version: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
        {
          description: "The personas each prompt was asked under, at their versions then; empty: nobody in particular.",
        },
      ),
      conversations: Type.Integer({
        minimum: 0,
        description: "Conversations run (a script on an engine, the nth time); their turns are in `progress`.",
      }),
      language: Nullable(Type.String()),
      progress: Type.Object(
        {
          total: Type.Integer({
            minimum: 0,
            description: "prompts × engines × samples × personas × countries, plus every turn of every conversation.",
          }),
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
      cost: CostSchema,
      errors: EngineFailuresSchema,
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
      prompts: Type.Optional(
        PromptList(
          "Prompts to ask, as sent; by default the project's tracked prompts that are switched on (not in `paused_prompts`).",
        ),
      ),
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
      countries: Type.Optional(
        Type.Array(Type.String({ minLength: 2, maxLength: 2 }), {
          maxItems: 10,
          description:
            "Countries to ask each prompt from (extension): by default `country` when sent, else the brand's `countries`, else its `country`. Refused for an engine that cannot be placed.",
        }),
      ),
      personas: Type.Optional(
        Type.Array(Type.String({ maxLength: 40 }), {
          maxItems: 10,
          description:
            "Persona ids to ask each prompt under (extension): the brand's active personas by default; `[]` asks as nobody in particular.",
        }),
      ),
      scripts: Type.Optional(
        Type.Array(Type.String({ maxLength: 40 }), {
          maxItems: 10,
          description:
            "Conversation scripts to run on each engine that holds conversations, `samples` times (extension): by default the brand's active scripts when `prompts` is not sent, none when it is. One credit per turn.",
        }),
      ),
      wait: Type.Optional(
        Type.Union([Type.Boolean(), Type.Integer({ minimum: 1, maximum: MAX_WAIT_SECONDS })], {
          description: `Answer when the analysis has finished instead of at once: \`true\` waits up to ${MAX_WAIT_SECONDS} s, a number that many seconds. Then 200 with the finished analysis, 502 \`ENGINE_FAILURE\` if every answer failed (credits given back), or 202 with the analysis still running if the wait ran out. \`Prefer: wait=N\` does the same.`,
        }),
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
