import Type from "typebox";
import { component, Dictionary, ListOf, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { GLOSSARY } from "../glossary/metrics.ts";
import { PROJECT_LIMITS } from "../limits.ts";
import { EngineList, PageQuery } from "../schemas.ts";

/** Days read on each side of a change: the answers before it, and after it until the result. */
export const WINDOW_DAYS = 28;
const MAX_PAGES = 20;

const effectWords = GLOSSARY.experiment_effect;
const Url = (description: string) => Type.String({ minLength: 1, maxLength: 2_000, description });
const PromptText = Type.String({ minLength: 1, maxLength: PROJECT_LIMITS.promptLength });
const Prompts = (description: string) =>
  Type.Array(PromptText, { minItems: 1, maxItems: PROJECT_LIMITS.prompts, description });

export const ChangeCreateSchema = component(
  "ChangeCreate",
  Type.Object(
    {
      title: Type.String({ minLength: 1, maxLength: 200, description: "What was done, in a line." }),
      changed_at: Type.Optional(
        Type.String({
          maxLength: 40,
          description:
            "When the change took effect (ISO 8601); now by default. At most a year ago, at most 90 days ahead.",
        }),
      ),
      pages: Type.Optional(
        Type.Array(Url("A changed page's URL, on one of the brand's domains."), {
          maxItems: MAX_PAGES,
          description: "The brand's pages that changed.",
        }),
      ),
      placement_url: Type.Optional(
        Nullable(Url("An outside placement: the review, listicle or article that now covers the brand.")),
      ),
      prompts: Type.Optional(
        Prompts(
          "The treated prompts: the brand's prompts the change should move. Omitted: proposed from the prompts whose answers cite the changed pages (or the placement) or share their words.",
        ),
      ),
      control_prompts: Type.Optional(
        Prompts(
          "The control prompts: the brand's prompts it should not move. Omitted: the brand's other active prompts.",
        ),
      ),
      engines: Type.Optional(EngineList("The engines measured; the brand's by default.")),
      effect: Type.Optional(
        Type.Number({
          minimum: 0.02,
          maximum: 1,
          description:
            "The effect to detect, as a share (0.1 = 10 points): the sample plan is made for it. By default 0.1, or, when the prompts are too few for 10 points to show at all, the smallest they can show with 50 answers per prompt and engine each side (rounded up to 5 points).",
        }),
      ),
      opportunity_id: Type.Optional(
        Type.String({
          maxLength: 100,
          description:
            "The opportunity this change acts on (“I did this”): its prompts are the treated prompts when none are given.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const ChangeSamplesSchema = component(
  "ChangeSamples",
  Type.Object(
    {
      at: Type.Optional(
        Type.String({ maxLength: 5, description: "The time of day the samples are asked, HH:MM; 09:00 by default." }),
      ),
      timezone: Type.Optional(Type.String({ maxLength: 64, description: "IANA time zone of `at`; UTC by default." })),
    },
    { additionalProperties: false },
  ),
);

export const ChangeParams = Type.Object(
  {
    id: Type.String({ maxLength: 100, description: "The brand's id." }),
    change_id: Type.String({ maxLength: 100, description: "The change's id." }),
  },
  { additionalProperties: false },
);

export const ChangeListQuery = Type.Object(PageQuery, { additionalProperties: false });

const Share = (description: string) => Nullable(Type.Number({ minimum: -1, maximum: 1, description }));

export const ExperimentEffectSchema = component(
  "ExperimentEffect",
  Type.Object(
    {
      status: StringEnum(["estimate", "not_enough_data"] as const, {
        description: "`not_enough_data`: fewer than 2 treated or 2 control prompts have answers on both sides.",
      }),
      effect: Share(`${effectWords.name}, as a fraction (0.12 is +12 pts). ${effectWords.counts}`),
      ci_low: Share(`Lower bound: ${effectWords.interval}`),
      ci_high: Share(`Upper bound: ${effectWords.interval}`),
      p_value: Nullable(Type.Number({ minimum: 0, maximum: 1, description: "Welch's t test's two-sided p-value." })),
      treated_prompts: Type.Integer({ minimum: 0, description: "Treated prompts answered on both sides." }),
      control_prompts: Type.Integer({ minimum: 0, description: "Control prompts answered on both sides." }),
      answers: Type.Integer({ minimum: 0, description: "The answers it rests on." }),
      treated: Type.Object(
        { before: Share("Treated prompts' share, before."), after: Share("After.") },
        { additionalProperties: false },
      ),
      control: Type.Object(
        { before: Share("Control prompts' share, before."), after: Share("After.") },
        { additionalProperties: false },
      ),
      message: Type.String({ description: "The figure in words, with its interval, or what is missing." }),
    },
    { additionalProperties: false, description: `${effectWords.hint} ${effectWords.significance}` },
  ),
);

const Traffic = (what: string) =>
  Nullable(
    Type.Object(
      {
        before_per_day: Type.Number({ minimum: 0, description: `${what} of the changed pages per day, before.` }),
        after_per_day: Type.Number({ minimum: 0, description: "After." }),
        other_before_per_day: Type.Number({ minimum: 0, description: "The brand's other pages, before." }),
        other_after_per_day: Type.Number({ minimum: 0, description: "The brand's other pages, after." }),
        days_before: Type.Integer({ minimum: 0 }),
        days_after: Type.Integer({ minimum: 0 }),
      },
      {
        additionalProperties: false,
        description: `${what} from the brand's logs (or GA4), per day; the other pages are the comparison. Not tested: counts of requests are not answers of prompts.`,
      },
    ),
  );

export const ChangeSchema = component(
  "Change",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `chg_`." }),
      object: Type.Literal("change"),
      project_id: Type.String(),
      title: Type.String(),
      changed_at: Timestamp,
      pages: Type.Array(Type.String()),
      placement_url: Nullable(Type.String()),
      prompts: Type.Array(Type.String(), { description: "The treated prompts." }),
      control_prompts: Type.Array(Type.String()),
      prompts_proposed: Type.Boolean({ description: "The treated prompts were proposed by Sightline." }),
      engines: Type.Array(Type.String()),
      opportunity_id: Nullable(Type.String()),
      status: StringEnum(["collecting", "result", "inconclusive", "not_called"] as const, {
        description:
          "`collecting`: the answers planned after the change are not all in (the figures so far are given, with their intervals); `result`: the effect is significant (p < 0.05); `inconclusive`: it is not, or too few prompts were answered; `not_called`: the treated and control prompts were already drifting apart before the change.",
      }),
      summary: Type.String({ description: "The result in a sentence, as the result card says it." }),
      result_at: Nullable(
        Type.String({ format: "date-time", description: "When the result was ready; the answers read stop there." }),
      ),
      window: Type.Object(
        {
          before_from: Timestamp,
          after_to: Type.String({ format: "date-time", description: "The end of the answers read after the change." }),
        },
        { additionalProperties: false, description: `${WINDOW_DAYS} days each side at most.` },
      ),
      visibility: Type.Object(
        {
          overall: ExperimentEffectSchema,
          by_engine: Dictionary(ExperimentEffectSchema, { description: "The same per engine." }),
        },
        { additionalProperties: false },
      ),
      citations: Nullable(ExperimentEffectSchema),
      pre_trend: Nullable(
        Type.Object(
          {
            diverging: Type.Boolean({ description: "p < 0.05: the result is not called." }),
            effect: Type.Number(),
            ci_low: Type.Number(),
            ci_high: Type.Number(),
            p_value: Type.Number({ minimum: 0, maximum: 1 }),
          },
          {
            additionalProperties: false,
            description:
              "The same estimate on the period before alone, its earlier half against its later half; null without enough answers before.",
          },
        ),
      ),
      crawls: Traffic("AI bots' requests"),
      referrals: Traffic("Visits AI engines referred"),
      plan: Type.Object(
        {
          effect: Type.Number({ description: "The effect planned for, as a fraction." }),
          answers_per_prompt: Nullable(
            Type.Integer({
              minimum: 1,
              description:
                "Answers needed per prompt and engine, before and again after, for 80% power; null when more prompts are needed instead.",
            }),
          ),
          before: Type.Object(
            { answers: Type.Integer({ minimum: 0 }), needed: Type.Integer({ minimum: 0 }) },
            { additionalProperties: false },
          ),
          after: Type.Object(
            { answers: Type.Integer({ minimum: 0 }), needed: Type.Integer({ minimum: 0 }) },
            { additionalProperties: false },
          ),
          credits: Type.Integer({ minimum: 0, description: "Credits the answers still missing cost: one per answer." }),
          cost_usd: Nullable(
            Type.Number({
              minimum: 0,
              description:
                "What the vendors would charge for them, from these engines' recent answers; null without any.",
            }),
          ),
          schedule_id: Nullable(Type.String({ description: "The monitoring schedule collecting the samples." })),
          samples_per_run: Nullable(Type.Integer({ minimum: 1 })),
          message: Type.String(),
        },
        { additionalProperties: false, description: "The sample plan: what the experiment needs and what it has." },
      ),
      series: Type.Array(
        Type.Object(
          {
            day: Type.String({ description: "YYYY-MM-DD, UTC." }),
            treated: Share("Treated prompts' visibility that day."),
            control: Share("Control prompts' visibility that day."),
            treated_answers: Type.Integer({ minimum: 0 }),
            control_answers: Type.Integer({ minimum: 0 }),
          },
          { additionalProperties: false },
        ),
        { description: "Treated against control, per day, over the window." },
      ),
      created_at: Timestamp,
    },
    {
      additionalProperties: false,
      description:
        "A change the brand made, measured as an experiment: treated against control prompts, before and after.",
    },
  ),
);

export const ChangeListSchema = ListOf("ChangeList", ChangeSchema);

export const ChangeDeletedSchema = component(
  "ChangeDeleted",
  Type.Object(
    { id: Type.String(), object: Type.Literal("change"), deleted: Type.Literal(true) },
    { additionalProperties: false },
  ),
);
