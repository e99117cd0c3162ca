import { plural } from "../../lib/format.ts";

/**
 * What an analysis of a brand asks (issue 29): every prompt of every engine, as many times as the
 * samples, under each persona switched on and from each country; then every turn of each script
 * switched on, on the engines that hold conversations. One answer or turn is one credit.
 */
export interface AnalysisShape {
  prompts: number;
  engines: number;
  samples: number;
  /** Personas switched on; none: asked as nobody in particular. */
  personas: number;
  /** Countries asked from; none: the brand's one country (or none). */
  countries: number;
  /** Scripts held, and their turns added up (both 0 when no conversation is held). */
  scripts: number;
  scriptTurns: number;
  /** Of the engines, those that hold conversations. */
  talkers: number;
}

export interface AnswerCount {
  /** Single answers: prompts × engines × samples × personas × countries. */
  single: number;
  conversations: number;
  turns: number;
  /** Answers and turns: the credits the analysis reserves. */
  total: number;
}

export function countAnswers(shape: AnalysisShape): AnswerCount {
  const variants = Math.max(1, shape.personas) * Math.max(1, shape.countries);
  const single = shape.prompts * shape.engines * shape.samples * variants;
  const turns = shape.scriptTurns * shape.samples * shape.talkers;
  return { single, conversations: shape.scripts * shape.talkers * shape.samples, turns, total: single + turns };
}

/**
 * The count in words, each factor named: "3 prompts × 1 engine × 2 samples × 2 personas = 12
 * answers, plus 2 conversations (6 turns)".
 */
export function describeAnswers(shape: AnalysisShape): string {
  const count = countAnswers(shape);
  const factors = [
    plural(shape.prompts, "prompt"),
    plural(shape.engines, "engine"),
    plural(shape.samples, "sample"),
    ...(shape.personas > 1 ? [plural(shape.personas, "persona")] : []),
    ...(shape.countries > 1 ? [plural(shape.countries, "country", "countries")] : []),
  ];
  const single = `${factors.join(" × ")} = ${plural(count.single, "answer")}`;
  if (count.turns === 0) return single;
  return `${single}, plus ${plural(count.conversations, "conversation")} (${plural(count.turns, "turn")})`;
}
