import type { ServiceContext } from "../context.ts";
import { judgeAnswer } from "../judge/judge.ts";
import { type CompiledProject, measureAnswer } from "../measurement/measure.ts";
import type { AnswerInput, AnswerMeasure } from "../measurement/types.ts";

/**
 * The measure an answer is stored with, the one way every answer gets it: a new answer of an
 * analysis and a stored one re-measured alike. The rules (ADR 0013) under the brand's settings as
 * compiled, then, where the rules are unsure of a name and the server has a judge, the rules again
 * with the judge's rulings (ADR 0020). The judge may be asked: call it outside any transaction.
 */
export async function measureResult(
  ctx: ServiceContext,
  compiled: CompiledProject,
  answer: AnswerInput,
): Promise<AnswerMeasure> {
  const rules = measureAnswer(compiled, answer);
  const rulings = await judgeAnswer(ctx, compiled, answer, rules);
  return rulings === null ? rules : measureAnswer(compiled, answer, rulings);
}

/**
 * What a stored answer was measured from, to measure it again: its text, the engine's own sources
 * (kept in its measure when they came from the engine; links in the text are read again) and its
 * prompt. Null when its text is gone (retention): it keeps the measure it has.
 */
export function storedAnswerInput(answer: {
  text: string | null;
  prompt: string;
  measure: AnswerMeasure | null;
}): AnswerInput | null {
  if (answer.text === null) return null;
  const { measure } = answer;
  const citations =
    measure !== null && measure.citation_source === "engine"
      ? measure.citations.map((c) => ({ url: c.url, title: c.title }))
      : [];
  return { text: answer.text, citations, prompt: answer.prompt };
}
