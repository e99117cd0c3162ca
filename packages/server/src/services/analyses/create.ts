import type { Static } from "typebox";
import { type ErrorDetail, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import { checkCountry, checkLanguage } from "../../lib/locale.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { reachRefusal } from "../engines/types.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { enqueueJob } from "../jobs/store.ts";
import { ANALYSIS_LIMITS } from "../limits.ts";
import { SCORE_VERSION } from "../measurement/score.ts";
import { checkEnginesInPlan } from "../plans/engines.ts";
import { cleanText, fold } from "../projects/normalize-text.ts";
import { getProject } from "../projects/projects.ts";
import { activePrompts } from "../projects/prompt-tags.ts";
import { reserveCredits, unavailable } from "../usage/credits.ts";
import { checkInput } from "../validate.ts";
import { askedPersonas, askedScripts, planConversations } from "./contexts.ts";
import { AnalyzeSchema } from "./schemas.ts";
import { type Analysis, type AnalysisTrigger, RUN_ANALYSIS_JOB } from "./types.ts";
import { rowToAnalysis } from "./view.ts";

/** What queues an analysis: `POST /v1/analyze`'s body without `wait`, which only the HTTP request has. */
export type AnalyzeInput = Omit<Static<typeof AnalyzeSchema>, "wait">;

export interface AnalysisOrigin {
  trigger: AnalysisTrigger;
  scheduleId?: string | null;
  /** Use the vendors' batch APIs where an engine has one (runs of a batch schedule, ADR 0030). */
  batch?: boolean;
}

/**
 * Queues an analysis: every prompt × engine × sample of a project is asked and measured by the
 * worker. Checks run in the API's order (validation, then engines in the plan, then credits); the
 * analysis, its credit reservation and its job are written in one transaction, so a refusal
 * leaves nothing behind and an accepted analysis cannot be lost.
 */
export async function createAnalysis(
  ctx: ServiceContext,
  input: AnalyzeInput,
  origin: AnalysisOrigin = { trigger: "api" },
): Promise<Analysis> {
  // The API has checked its body already; the CLI, the scheduler and the dashboard call here too.
  checkInput(AnalyzeSchema, input);
  const project = await getProject(ctx, input.project_id);
  const details: ErrorDetail[] = [];
  const engines = [...new Set(input.engines ?? project.engines)];
  const known = await workspaceEngines(ctx);
  engines.forEach((engine, index) => {
    if (!known.isKnown(engine)) {
      details.push({
        field: input.engines === undefined ? "engines" : `engines[${index}]`,
        issue: `unknown engine '${engine}'; engines are ${known.names().join(", ")}`,
      });
    }
  });
  if (engines.length === 0) details.push({ field: "engines", issue: "must name at least one engine" });
  // Paused prompts are switched off: not asked by default, and never by monitoring, even when its
  // schedule names them. Prompts sent to an analysis by hand are asked as sent.
  const paused = new Set((project.paused_prompts ?? []).map(fold));
  const asked =
    input.prompts === undefined
      ? activePrompts(project)
      : origin.trigger === "monitoring"
        ? input.prompts.filter((prompt) => !paused.has(fold(prompt)))
        : input.prompts;
  const seen = new Set<string>();
  const prompts: string[] = [];
  for (const raw of asked) {
    const prompt = cleanText(raw);
    if (prompt !== "" && !seen.has(fold(prompt))) {
      seen.add(fold(prompt));
      prompts.push(prompt);
    }
  }
  const samples = input.samples ?? 1;
  let country = project.country;
  if (input.country !== undefined) {
    const checked = input.country === null ? null : checkCountry(input.country);
    if (checked !== null && !checked.ok) details.push({ field: "country", issue: checked.issue });
    country = checked === null ? null : checked.ok ? checked.value : null;
  }
  // Countries: those sent, else the one sent, else the brand's, else its one country (issue 29).
  let countries: string[] = [];
  if (input.countries !== undefined) {
    input.countries.forEach((code, index) => {
      const checked = checkCountry(code);
      if (!checked.ok) details.push({ field: `countries[${index}]`, issue: checked.issue });
      else if (!countries.includes(checked.value)) countries.push(checked.value);
    });
  } else if (input.country === undefined && (project.countries ?? []).length > 0) countries = [...project.countries];
  // A country named in the request is as strict as the brand's countries: an engine that cannot be
  // placed there is not asked. Only the brand's one `country` (its market) is asked where it can be.
  if (countries.length === 0 && input.country !== undefined && country !== null) countries = [country];
  if (countries.length > 0) country = countries[0] ?? null;
  const askedFrom: (string | null)[] = countries.length > 0 ? countries : [country];
  // An engine named in the request cannot be asked from a country named in it where it cannot be placed.
  if (input.engines !== undefined && (input.countries !== undefined || input.country !== undefined)) {
    engines.forEach((engine, index) => {
      const reach = known.reachOf(engine);
      for (const code of askedFrom) {
        if (code === null || reach === null) continue;
        const refused = reachRefusal(engine, reach, { prompt: "", country: code, language: null, sample: 1, seed: "" });
        if (refused !== null) {
          details.push({
            field: `engines[${index}]`,
            issue: `${refused.split(",")[0]}; leave it out, or ask without that country`,
          });
          break;
        }
      }
    });
  }
  const personas = await askedPersonas(ctx, project.id, input.personas, details);
  const scripts = await askedScripts(
    ctx,
    project.id,
    input.prompts === undefined ? input.scripts : (input.scripts ?? []),
    details,
  );
  // A conversation-only analysis asks no single prompt.
  if (prompts.length === 0 && scripts.length === 0) {
    details.push({
      field: "prompts",
      issue:
        asked.length < (input.prompts ?? project.prompts).length
          ? "every prompt it would ask is paused; switch one on, or send prompts"
          : input.prompts === undefined
            ? "the project tracks no prompts; send prompts, or add some to the project"
            : "must hold at least one non-empty prompt",
    });
  }
  // Conversations run on the engines that hold them (APIs, not scraped pages).
  const talkers = engines.filter((engine) => (known.reachOf(engine)?.conversation ?? "none") !== "none");
  if (input.scripts !== undefined && input.scripts.length > 0 && talkers.length === 0) {
    details.push({
      field: "scripts",
      issue: "none of the engines holds a conversation (search and scraped surfaces do not); add an API engine",
    });
  }
  const variants = Math.max(1, personas.length) * askedFrom.length;
  const turnsPerEngine = scripts.reduce((sum, script) => sum + script.turns.length, 0) * samples;
  const total = prompts.length * engines.length * samples * variants + turnsPerEngine * talkers.length;
  if (total > ANALYSIS_LIMITS.answers) {
    details.push({
      issue: `asks for ${total} answers (prompts × engines × samples × personas × countries, and the conversations' turns); an analysis can have at most ${ANALYSIS_LIMITS.answers}`,
    });
  }
  let language = project.language;
  if (input.language !== undefined) {
    const checked = input.language === null ? null : checkLanguage(input.language);
    if (checked !== null && !checked.ok) details.push({ field: "language", issue: checked.issue });
    language = checked === null ? null : checked.ok ? checked.value : null;
  }
  if (details.length > 0) throw validationError(details);
  checkEnginesInPlan(ctx, engines);

  const now = ctx.clock.now().toISOString();
  const row = {
    id: newId("ana"),
    workspace_id: ctx.workspace.id,
    project_id: project.id,
    status: "queued",
    trigger: origin.trigger,
    schedule_id: origin.scheduleId ?? null,
    engines: toJson(engines),
    prompts: toJson(prompts),
    samples,
    country,
    countries: toJson(countries),
    personas: toJson(personas.map(({ id, version }) => ({ id, version }))),
    language,
    total_answers: total,
    credits_reserved: total,
    credits_released: 0,
    errors: "[]",
    summary: null,
    score_version: SCORE_VERSION,
    created_at: now,
    started_at: null,
    completed_at: null,
    updated_at: now,
    batch: origin.batch ?? false,
  };
  // The reservation is the point of this transaction: if the database cannot take it (busy, down),
  // the quota cannot be read either, and the answer is BILLING_UNAVAILABLE, never a silent pass.
  return inTransaction(ctx, async (tx) => {
    // Credits first: a refusal then leaves nothing of the analysis in the caller's transaction.
    await reserveCredits(tx, {
      charges: engines.map((engine) => ({
        engine,
        credits: prompts.length * samples * variants + (talkers.includes(engine) ? turnsPerEngine : 0),
      })),
      reference: row.id,
    });
    await tx.db.insertInto("analyses").values(row).execute();
    await planConversations(tx, row, scripts, talkers, samples);
    await enqueueJob(tx, { kind: RUN_ANALYSIS_JOB, payload: { analysis_id: row.id }, maxAttempts: 5 });
    const conversations = scripts.length * talkers.length * samples;
    return rowToAnalysis(row, { succeeded: 0, failed: 0, costs: new Map(), conversations });
  }).catch((error: unknown) => unavailable(ctx, error));
}
