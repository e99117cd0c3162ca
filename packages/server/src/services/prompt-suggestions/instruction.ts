import { displayName } from "../../lib/locale.ts";

/**
 * What an engine is asked for prompt suggestions: fixed text in code, versioned. Any change to it
 * (wording, what it is built from, the shape asked for) is a new SUGGESTION_INSTRUCTION_VERSION,
 * returned with every list so that a client can tell which instruction produced it.
 *
 * It is built from the market only: the brand's category, its competitors' names as examples of the
 * market, the language and country, and the prompts already tracked (so as not to repeat them). It
 * never carries the brand's own name, aliases or domains: suggestions are asked as a buyer would
 * ask, the way every prompt is (DESIGN.md §3).
 */
export const SUGGESTION_INSTRUCTION_VERSION = "1";

export const FUNNEL_STAGES = ["awareness", "consideration", "decision"] as const;
type FunnelStage = (typeof FUNNEL_STAGES)[number];

/** Tracked prompts shown to the engine as examples not to repeat, at most. */
const MAX_EXAMPLES = 10;

/** The longest suggestion kept: buyers' questions are a sentence or two. */
const MAX_QUESTION_LENGTH = 300;

export interface SuggestionMarket {
  category: string;
  competitors: readonly string[];
  /** Tracked prompts that do not name the brand. */
  examples: readonly string[];
  language: string | null;
  country: string | null;
  count: number;
}

export function suggestionInstruction(market: SuggestionMarket): string {
  const lines = [
    `List ${market.count} different questions that a buyer looking for ${market.category} would type into an AI assistant while learning about the problem, comparing options and choosing one.`,
  ];
  if (market.competitors.length > 0) {
    lines.push(`Some of the options on this market: ${market.competitors.slice(0, 8).join(", ")}.`);
  }
  if (market.country !== null) lines.push(`The buyer is in ${displayName(market.country, "region")}.`);
  lines.push(
    `Write the questions in ${market.language === null ? "English" : displayName(market.language, "language")}.`,
  );
  const rules = [
    "Rules:",
    "- Each question is what a real buyer would type, in their own words, and ends with a question mark.",
    "- Do not name any company, brand or product in the questions.",
    "- Cover the three stages of buying: awareness (understanding the problem), consideration (comparing kinds of solutions and features) and decision (choosing one, prices, reviews).",
    `- Reply with a numbered list only, one question per line, each starting with its stage in square brackets, for example: 1. [consideration] What should I look for in ${market.category}?`,
  ];
  const examples = market.examples.slice(0, MAX_EXAMPLES);
  if (examples.length > 0) {
    rules.push(
      "- Do not repeat these questions, which are already tracked:",
      ...examples.map((example) => `  - ${example}`),
    );
  }
  return [...lines, "", ...rules].join("\n");
}

export interface ParsedQuestion {
  question: string;
  stage: FunnelStage | null;
}

const LIST_ITEM = /^\s*(?:\d{1,3}\s*[.)]|[-*•–])\s+(.*)$/;
const STAGE = /^[[(]\s*([a-z]+)\s*[\])]\s*[:\-–]?\s*|^([a-z]+)\s*:\s+/i;

/**
 * The questions of an answer, read defensively: numbered or bulleted lines that end with a
 * question mark, without Markdown emphasis or quotes, with the stage when one leads the line
 * (`[consideration]`, `(decision)`, `Awareness:`). Anything else in the answer is ignored.
 */
export function parseQuestions(text: string): ParsedQuestion[] {
  const out: ParsedQuestion[] = [];
  for (const line of text.split(/\r?\n/)) {
    const item = LIST_ITEM.exec(line)?.[1];
    if (item === undefined) continue;
    let rest = item.replace(/\*\*|__|`/g, "").trim();
    let stage: FunnelStage | null = null;
    const lead = STAGE.exec(rest);
    const named = (lead?.[1] ?? lead?.[2])?.toLowerCase();
    if (lead !== null && FUNNEL_STAGES.includes(named as FunnelStage)) {
      stage = named as FunnelStage;
      rest = rest.slice(lead[0].length);
    }
    const question = rest
      .replace(/^["“”'‘’]+|["“”'‘’]+$/g, "")
      .replace(/\s+/g, " ")
      .trim();
    if (question.length < 8 || question.length > MAX_QUESTION_LENGTH || !/[?？]$/.test(question)) continue;
    out.push({ question, stage });
  }
  return out;
}
