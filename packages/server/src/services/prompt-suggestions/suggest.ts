import type { Static } from "typebox";
import { ApiError, validationError } from "../../errors/api-error.ts";
import { randomBase62 } from "../../lib/ids.ts";
import type { ServiceContext } from "../context.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { compileProject } from "../measurement/measure.ts";
import { checkEnginesInPlan } from "../plans/engines.ts";
import { measuredProject } from "../projects/measured.ts";
import { fold } from "../projects/normalize-text.ts";
import { getProject } from "../projects/projects.ts";
import type { Project } from "../projects/types.ts";
import { releaseCredits, reserveCredits } from "../usage/credits.ts";
import {
  type ParsedQuestion,
  parseQuestions,
  SUGGESTION_INSTRUCTION_VERSION,
  type SuggestionMarket,
  suggestionInstruction,
} from "./instruction.ts";
import { sandboxSuggestions } from "./sandbox.ts";
import type { PromptSuggestionsRequestSchema, PromptSuggestionsSchema } from "./schemas.ts";

type PromptSuggestions = Static<typeof PromptSuggestionsSchema>;

const SANDBOX = "sandbox";

/** Whether a text names the brand: its name or an alias as the project's matcher finds them, or a domain. */
function brandTest(project: Project): (text: string) => boolean {
  const { matcher } = compileProject(measuredProject(project));
  const domains = [project.primary_domain, ...project.other_domains].map((domain) => domain.toLowerCase());
  return (text) => {
    const lower = text.toLowerCase();
    if (domains.some((domain) => lower.includes(domain))) return true;
    return matcher.occurrences(matcher.prepare(text)).found.some((occurrence) => occurrence.brand === 0);
  };
}

/**
 * Asks an engine (the offline sandbox by default) for questions a buyer in the brand's category
 * would ask, with a fixed, versioned instruction that never names the brand (instruction.ts), and
 * keeps the numbered questions of its answer that do not name the brand (its name, aliases or
 * domains, as the project's own matcher finds them) and are not tracked already, deduplicated,
 * `count` at most. Costs one credit, as any answer from an engine does; given back if the engine
 * fails. Nothing is stored: the caller adds the questions it wants to the project's prompts.
 */
export async function suggestPrompts(
  ctx: ServiceContext,
  projectId: string,
  input: Static<typeof PromptSuggestionsRequestSchema>,
): Promise<PromptSuggestions> {
  const engine = input.engine ?? SANDBOX;
  const known = await workspaceEngines(ctx);
  if (!known.isKnown(engine)) {
    throw validationError([{ field: "engine", issue: `unknown engine; engines are ${known.names().join(", ")}` }]);
  }
  const project = await getProject(ctx, projectId);
  const namesBrand = brandTest(project);
  const category = project.category ?? null;
  if (category === null) {
    throw validationError([
      {
        field: "category",
        issue: "the brand has no category; set it first (what the brand sells, e.g. CRM for small agencies)",
      },
    ]);
  }
  if (namesBrand(category)) {
    throw validationError([
      { field: "category", issue: "the brand's category names the brand; describe what it sells without its name" },
    ]);
  }
  checkEnginesInPlan(ctx, [engine], "engine");

  const count = input.count ?? 10;
  const market: SuggestionMarket = {
    category,
    competitors: project.competitors.map((competitor) => competitor.name),
    examples: project.prompts.filter((prompt) => !namesBrand(prompt)),
    language: project.language,
    country: project.country,
    // A few more than wanted: some may be tracked already, or name the brand.
    count: Math.min(count + 5, 25),
  };
  const questions = await ask(ctx, engine, market);

  const seen = new Set(project.prompts.map(fold));
  const data: PromptSuggestions["data"] = [];
  for (const { question, stage } of questions) {
    if (data.length >= count) break;
    const key = fold(question);
    if (seen.has(key) || namesBrand(question)) continue;
    seen.add(key);
    data.push({ prompt: question, tags: stage === null ? [] : [`funnel:${stage}`] });
  }
  return { object: "list", engine, instruction_version: SUGGESTION_INSTRUCTION_VERSION, data };
}

/** The engine's questions, paying one credit for its answer (given back when it fails). */
async function ask(ctx: ServiceContext, engine: string, market: SuggestionMarket): Promise<ParsedQuestion[]> {
  const text = await askForSuggestions(ctx, engine, "prompts", suggestionInstruction(market), market, () =>
    sandboxSuggestions(market),
  );
  return parseQuestions(text);
}

/**
 * One engine's answer to a fixed suggestion instruction, for one credit (given back when the
 * engine fails, which throws ENGINE_FAILURE). The sandbox answers with `simulated()` instead: the
 * offline engine's deterministic reply. Also used by the brand suggestions (websites/).
 */
export async function askForSuggestions(
  ctx: ServiceContext,
  engine: string,
  /** What is asked for, for the error: `prompts`, `competitors`. */
  what: string,
  instruction: string,
  market: { country: string | null; language: string | null },
  simulated: () => string,
): Promise<string> {
  const reference = `prompt_suggestions_${randomBase62(20)}`;
  const charges = [{ engine, credits: 1 }];
  await reserveCredits(ctx, { charges, reference });
  if (engine === SANDBOX) return simulated();
  const engines = await workspaceEngines(ctx);
  // The market is in the instruction already: an engine that cannot be placed in it is asked from
  // nowhere in particular rather than refused (a suggestion is not a measurement).
  const reach = engines.reachOf(engine);
  const placed = market.country !== null && reach?.country != null && (reach.placesIn?.(market.country) ?? true);
  const asked = await engines.ask(engine, {
    prompt: instruction,
    country: placed ? market.country : null,
    language: market.language,
    sample: 1,
    seed: reference,
  });
  if (!asked.outcome.ok) {
    await releaseCredits(ctx, { charges, reference });
    const { message, retryAfter } = asked.outcome.error;
    throw new ApiError(
      "ENGINE_FAILURE",
      `${engine} could not suggest ${what}: ${message}`,
      retryAfter === null ? {} : { retryAfter },
    );
  }
  return asked.outcome.answer.text;
}
