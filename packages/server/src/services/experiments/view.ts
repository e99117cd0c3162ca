import type { Selectable } from "kysely";
import type { Static } from "typebox";
import type { ChangesTable } from "../../db/tables.ts";
import type { ServiceContext } from "../context.ts";
import { usd } from "../glossary/format.ts";
import { trafficAround } from "../traffic/around.ts";
import { pageKey, windowAnswers } from "./answers.ts";
import { changeColumns } from "./columns.ts";
import { effectOf, preTrendOf, seriesOf, verdict, type WindowAnswer } from "./figures.ts";
import { planAnswers, smallestEffect } from "./plan.ts";
import { type ChangeSchema, WINDOW_DAYS } from "./schemas.ts";

export type ChangeView = Static<typeof ChangeSchema>;
type PlanView = ChangeView["plan"];

const DAY_MS = 86_400_000;
/** The answers per prompt and engine the smallest detectable effect is told for. */
const SMALLEST_AT = 50;

/** The stored change's lists, parsed. */
export function changeLists(row: Selectable<ChangesTable>) {
  return {
    pages: changeColumns.pages.read(row.pages),
    prompts: changeColumns.prompts.read(row.prompts),
    control: changeColumns.controlPrompts.read(row.control_prompts),
    engines: changeColumns.engines.read(row.engines),
  };
}

/** The answers' window: 28 days before the change, and after it until the result (28 days at most). */
function windowOf(row: Selectable<ChangesTable>, now: Date) {
  const changedAt = Date.parse(row.changed_at);
  const from = changedAt - WINDOW_DAYS * DAY_MS;
  const end = changedAt + WINDOW_DAYS * DAY_MS;
  const stop = row.result_at === null ? now.getTime() : Date.parse(row.result_at);
  return { changedAt, from, end, to: Math.max(changedAt, Math.min(stop, end)) };
}

/** Average vendor cost of one answer per engine over the last 30 days, in USD; engines without priced answers are absent. */
async function costPerAnswer(ctx: ServiceContext, engines: readonly string[]): Promise<Map<string, number>> {
  const since = new Date(ctx.clock.now().getTime() - 30 * DAY_MS).toISOString();
  const rows = await ctx.db
    .selectFrom("results")
    .select(["engine"])
    .select((eb) => [eb.fn.sum<number>("cost_micros").as("micros"), eb.fn.count<number>("id").as("n")])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("engine", "in", [...engines])
    .where("created_at", ">=", since)
    .where("cost_micros", "is not", null)
    .groupBy("engine")
    .execute();
  return new Map(rows.map((r) => [r.engine, Number(r.micros) / 1_000_000 / Math.max(1, Number(r.n))]));
}

async function planOf(
  ctx: ServiceContext,
  row: Selectable<ChangesTable>,
  answers: readonly WindowAnswer[],
  now: number,
  changedAt: number,
): Promise<PlanView> {
  const { prompts, control, engines } = changeLists(row);
  const before = answers.filter((a) => !a.after);
  const baseRate = before.length === 0 ? undefined : before.filter((a) => a.mentioned).length / before.length;
  const plan = planAnswers({
    treatedPrompts: prompts.length,
    controlPrompts: control.length,
    effect: row.effect,
    ...(baseRate === undefined ? {} : { baseRate: Math.min(0.95, Math.max(0.05, baseRate)) }),
  });
  const cells = (prompts.length + control.length) * engines.length;
  const needed = plan.answers === null ? 0 : plan.answers * cells;
  const have = { before: before.length, after: answers.length - before.length };
  const missingBefore = now < changedAt ? Math.max(0, needed - have.before) : 0;
  const missingAfter = Math.max(0, needed - have.after);
  const credits = missingBefore + missingAfter;
  const prices = await costPerAnswer(ctx, engines);
  const priced = engines.filter((e) => prices.has(e));
  const cost_usd =
    priced.length === 0
      ? null
      : Math.round((priced.reduce((sum, e) => sum + (prices.get(e) ?? 0), 0) / priced.length) * credits * 100) / 100;
  let schedule: { id: string; samples: number } | undefined;
  if (row.schedule_id !== null) {
    schedule = await ctx.db
      .selectFrom("monitoring_schedules")
      .select(["id", "samples"])
      .where("workspace_id", "=", ctx.workspace.id)
      .where("id", "=", row.schedule_id)
      .executeTakeFirst();
  }
  const size = `${Math.round(row.effect * 100)} pts`;
  const message =
    plan.answers === null
      ? `More prompts are needed: with ${prompts.length} treated and ${control.length} control prompts, prompts differ too much for ${size} to show however many answers are asked. Add prompts, or plan for a larger effect: these prompts can show about ${Math.ceil(smallestEffect({ treatedPrompts: prompts.length, controlPrompts: control.length, answers: SMALLEST_AT, ...(baseRate === undefined ? {} : { baseRate }) }) * 100)} pts with ${SMALLEST_AT} answers per prompt and engine.`
      : `To detect ${size} with 80% power: ${plan.answers} answers per prompt and engine before and after (${needed.toLocaleString("en-US")} each side). Before: ${have.before.toLocaleString("en-US")}${now >= changedAt && have.before < needed ? " (the period before the change is past: the estimate rests on what it has)" : ""}; after: ${have.after.toLocaleString("en-US")}. ${credits === 0 ? "Nothing more to ask." : `The answers missing cost ${credits.toLocaleString("en-US")} credits${cost_usd === null ? "" : cost_usd === 0 ? " (these engines charge nothing)" : ` and about ${usd(cost_usd)} at the vendors`}.`}`;
  return {
    effect: row.effect,
    answers_per_prompt: plan.answers,
    before: { answers: have.before, needed },
    after: { answers: have.after, needed },
    credits,
    cost_usd,
    schedule_id: schedule?.id ?? null,
    samples_per_run: schedule?.samples ?? null,
    message,
  };
}

/** Every figure of a change, from the stored answers and traffic. */
export async function changeView(ctx: ServiceContext, row: Selectable<ChangesTable>): Promise<ChangeView> {
  const now = ctx.clock.now();
  const lists = changeLists(row);
  const window = windowOf(row, now);
  const keys = [...lists.pages, ...(row.placement_url === null ? [] : [row.placement_url])]
    .map(pageKey)
    .filter((k): k is string => k !== null);
  const answers = await windowAnswers(ctx, {
    projectId: row.project_id,
    treated: lists.prompts,
    control: lists.control,
    engines: lists.engines,
    pages: keys,
    changedAt: window.changedAt,
    from: window.from,
    to: window.to,
  });
  const mentioned = (a: WindowAnswer) => a.mentioned;
  const overall = effectOf(answers, mentioned, "Visibility");
  const byEngine: Record<string, ChangeView["visibility"]["overall"]> = {};
  for (const engine of lists.engines) {
    byEngine[engine] = effectOf(
      answers.filter((a) => a.engine === engine),
      mentioned,
      "Visibility",
    );
  }
  const plan = await planOf(ctx, row, answers, now.getTime(), window.changedAt);
  const complete =
    row.result_at !== null ||
    now.getTime() >= window.end ||
    (plan.answers_per_prompt !== null && plan.after.answers >= plan.after.needed);
  const pre = preTrendOf(answers);
  const missing = plan.answers_per_prompt === null ? null : Math.max(0, plan.after.needed - plan.after.answers);
  const { status, summary } = verdict(complete, overall, pre, missing);
  const traffic = await trafficAround(ctx, row.project_id, lists.pages, window);
  return {
    id: row.id,
    object: "change",
    project_id: row.project_id,
    title: row.title,
    changed_at: row.changed_at,
    pages: lists.pages,
    placement_url: row.placement_url,
    prompts: lists.prompts,
    control_prompts: lists.control,
    prompts_proposed: Boolean(row.prompts_proposed),
    engines: lists.engines,
    opportunity_id: row.opportunity_id,
    status,
    summary,
    result_at: row.result_at,
    window: { before_from: new Date(window.from).toISOString(), after_to: new Date(window.to).toISOString() },
    visibility: { overall, by_engine: byEngine },
    citations: keys.length === 0 ? null : effectOf(answers, (a) => a.cited, "The changed pages' citation rate"),
    pre_trend: pre,
    crawls: traffic.crawls,
    referrals: traffic.referrals,
    plan,
    series: seriesOf(answers),
    created_at: row.created_at,
  };
}
