import { ApiError } from "../../errors/api-error.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { randomBase62 } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { ServiceContext } from "../context.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { ambiguousNames, type CompiledProject } from "../measurement/measure.ts";
import type { AnswerInput, AnswerMeasure, MeasureOptions } from "../measurement/types.ts";
import { JUDGE_LEDGER, releaseCredits, reserveCredits } from "../usage/credits.ts";
import { judgeColumns } from "./columns.ts";
import { JUDGE_PROMPT_VERSION, type JudgeQuestion, judgePrompt, parseVerdict, type Verdict } from "./prompt.ts";

function cacheKey(question: JudgeQuestion): string {
  const names = [...question.names].sort();
  return sha256Hex(JSON.stringify([JUDGE_PROMPT_VERSION, names, question.toneOf, question.prompt, question.text]));
}

async function cached(ctx: ServiceContext, key: string): Promise<Verdict | null> {
  const row = await ctx.db
    .selectFrom("judge_verdicts")
    .select(["meant", "tone"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("key", "=", key)
    .executeTakeFirst();
  if (row === undefined) return null;
  return { meant: new Map(Object.entries(judgeColumns.meant.read(row.meant))), tone: row.tone };
}

/**
 * Asks the judge once, paying one credit: refused (allowance reached, quota unreadable), failed or
 * unreadable, it gives nothing and the credit is given back; answered, the verdict is cached.
 */
async function ask(ctx: ServiceContext, engine: string, question: JudgeQuestion, key: string): Promise<Verdict | null> {
  const reference = `judge_${randomBase62(20)}`;
  const charges = [{ engine: JUDGE_LEDGER, credits: 1 }];
  try {
    await reserveCredits(ctx, { charges, reference });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    ctx.logger.warn(
      { workspace: ctx.workspace.id, code: error.code },
      "judge not asked: credits could not be reserved",
    );
    return null;
  }
  // The workspace's own key for the judge's engine answers when it has one.
  const asked = await (await workspaceEngines(ctx)).ask(engine, {
    prompt: judgePrompt(question),
    country: null,
    language: null,
    sample: 1,
    seed: key,
  });
  const verdict = asked.outcome.ok ? parseVerdict(asked.outcome.answer.text, question) : null;
  if (verdict === null) {
    ctx.logger.warn(
      { workspace: ctx.workspace.id, engine, failed: !asked.outcome.ok },
      "judge gave no usable verdict; the rules' measure stands",
    );
    await releaseCredits(ctx, { charges, reference });
    return null;
  }
  await ctx.db
    .insertInto("judge_verdicts")
    .values({
      workspace_id: ctx.workspace.id,
      key,
      meant: toJson(Object.fromEntries(verdict.meant)),
      tone: verdict.tone,
      engine,
      prompt_version: JUDGE_PROMPT_VERSION,
      created_at: ctx.clock.now().toISOString(),
    })
    .onConflict((oc) => oc.columns(["workspace_id", "key"]).doNothing())
    .execute();
  return verdict;
}

/**
 * The judge's rulings on an answer the rules measured (`rules`): when the server has a judge and the
 * rules are unsure of a name, what the judge (or its cached verdict) says about those names and,
 * when the brand is named, its tone. Null without a judge, when the rules are sure, or without a
 * usable verdict: the rules' measure stands. Never throws for the judge's sake. The measure an
 * answer is stored with is made of these by results/measure.ts.
 */
export async function judgeAnswer(
  ctx: ServiceContext,
  compiled: CompiledProject,
  answer: AnswerInput,
  rules: AnswerMeasure,
): Promise<MeasureOptions | null> {
  if (ctx.judge === null) return null;
  const names = ambiguousNames(rules);
  if (names.length === 0) return null;
  const brand = compiled.project.brand.name;
  const question: JudgeQuestion = {
    prompt: answer.prompt ?? "",
    text: answer.text,
    names,
    toneOf: rules.brand.mentioned || names.includes(brand) ? brand : null,
  };
  const key = cacheKey(question);
  const verdict = (await cached(ctx, key)) ?? (await ask(ctx, ctx.judge.engine, question, key));
  if (verdict === null) return null;
  return { verdicts: verdict.meant, ...(verdict.tone === null ? {} : { tone: verdict.tone }) };
}
