import { ownValue } from "../../lib/own-keys.ts";

/**
 * The judge's prompt: fixed text in code, versioned. Any change to it (wording, limits, the JSON
 * asked for) is a new JUDGE_PROMPT_VERSION, so that verdicts cached under the old one are not reused.
 */
export const JUDGE_PROMPT_VERSION = "1";

/** Answers longer than this are cut for the judge (the names it is asked about come first anyway). */
const MAX_ANSWER_CHARS = 12_000;

export interface JudgeQuestion {
  /** The prompt the answer replied to; empty when unknown. */
  prompt: string;
  text: string;
  /** The names the rules are unsure of. */
  names: string[];
  /** The brand whose tone is asked for, when it is named; null to ask about names only. */
  toneOf: string | null;
}

export function judgePrompt(question: JudgeQuestion): string {
  const names = question.names.map((name) => `- ${JSON.stringify(name)}`).join("\n");
  const example = Object.fromEntries(question.names.map((name) => [name, true]));
  const tone =
    question.toneOf === null
      ? ""
      : `\nAlso rate the answer's tone towards ${JSON.stringify(question.toneOf)}, from -1 (it warns against it) through 0 (neutral, only named) to 1 (it recommends it), as "tone".`;
  const shape = question.toneOf === null ? { meant: example } : { meant: example, tone: 0.5 };
  return [
    "You check how an AI assistant's answer refers to brands. Each name below is also an ordinary word, a place or something else.",
    "For each name, say whether the answer uses it to mean the company, brand or product of that name (true) or something else (false).",
    `Names:\n${names}${tone}`,
    `Reply with one JSON object and nothing else, shaped like ${JSON.stringify(shape)}.`,
    `The question the assistant was asked:\n"""\n${question.prompt}\n"""`,
    `The assistant's answer:\n"""\n${question.text.slice(0, MAX_ANSWER_CHARS)}\n"""`,
  ].join("\n\n");
}

export interface Verdict {
  meant: Map<string, boolean>;
  tone: number | null;
}

/**
 * What the judge said, read defensively: the first JSON object in its reply (models wrap JSON in
 * fences or prose), booleans for the names asked about (others ignored), a tone in [-1, 1].
 * Null when nothing usable came back: the rules' measure then stands.
 */
export function parseVerdict(reply: string, question: JudgeQuestion): Verdict | null {
  const start = reply.indexOf("{");
  const end = reply.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  let value: unknown;
  try {
    value = JSON.parse(reply.slice(start, end + 1));
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const meant = new Map<string, boolean>();
  const said = record.meant;
  if (typeof said === "object" && said !== null && !Array.isArray(said)) {
    for (const name of question.names) {
      const verdict = ownValue(said as Record<string, unknown>, name);
      if (typeof verdict === "boolean") meant.set(name, verdict);
    }
  }
  const rawTone = record.tone;
  const tone =
    question.toneOf !== null && typeof rawTone === "number" && Number.isFinite(rawTone) && Math.abs(rawTone) <= 1
      ? Math.round(rawTone * 1000) / 1000
      : null;
  if (meant.size === 0 && tone === null) return null;
  return { meant, tone };
}
