import { studentTQuantile } from "./distributions.ts";

/**
 * How many answers an experiment needs (issue 27): per prompt and engine, before and after alike,
 * to detect an effect of `effect` (a share: 0.1 = 10 points) with the given power at 5%, by the
 * estimator of estimate.ts. A prompt's change varies by chance (p(1 − p)/n on each side) and by
 * how prompts differ in how they move (`promptSpread`, the standard deviation of prompts' changes
 * beyond chance: from the brand's own history when it has some, else 5 points). When the prompts
 * alone vary too much for the effect to show however many answers are asked, more prompts are
 * needed, not more answers: `answers` is then null.
 */
interface PlanInput {
  treatedPrompts: number;
  controlPrompts: number;
  effect: number;
  /** The share of answers naming the brand now; 0.5 (the most variable) when unknown. */
  baseRate?: number;
  promptSpread?: number;
  power?: number;
}

interface Plan {
  /** Answers per prompt and engine, before and again after; null when no number is enough. */
  answers: number | null;
  degrees_of_freedom: number;
}

const DEFAULT_PROMPT_SPREAD = 0.05;

export function planAnswers(input: PlanInput): Plan {
  const p = input.baseRate ?? 0.5;
  const tau = input.promptSpread ?? DEFAULT_PROMPT_SPREAD;
  const power = input.power ?? 0.8;
  const k = input.treatedPrompts;
  const m = input.controlPrompts;
  const df = Math.max(1, k + m - 2);
  if (k < 2 || m < 2 || input.effect <= 0) return { answers: null, degrees_of_freedom: df };
  const needed = studentTQuantile(0.975, df) + studentTQuantile(power, df);
  // Largest variance of one prompt's change that still lets the effect show.
  const allowed = (input.effect / needed) ** 2 / (1 / k + 1 / m);
  const chance = allowed - tau * tau;
  if (chance <= 0) return { answers: null, degrees_of_freedom: df };
  // Var(one prompt's change) = τ² + 2 p(1 − p) / n.
  return { answers: Math.ceil((2 * p * (1 - p)) / chance), degrees_of_freedom: df };
}

/**
 * The smallest effect an experiment can detect with `answers` per prompt and engine on each side
 * (80% power by default), as a share: what to plan for when the prompts are too few for the effect
 * asked. The inverse of planAnswers.
 */
export function smallestEffect(input: Omit<PlanInput, "effect"> & { answers: number }): number {
  const p = input.baseRate ?? 0.5;
  const tau = input.promptSpread ?? DEFAULT_PROMPT_SPREAD;
  const k = input.treatedPrompts;
  const m = input.controlPrompts;
  const df = Math.max(1, k + m - 2);
  const needed = studentTQuantile(0.975, df) + studentTQuantile(input.power ?? 0.8, df);
  return needed * Math.sqrt((tau * tau + (2 * p * (1 - p)) / input.answers) * (1 / k + 1 / m));
}
