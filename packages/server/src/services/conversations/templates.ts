import type { AnswerMeasure } from "../measurement/types.ts";

/**
 * A script's turns are templates: `{name}` is filled in when the turn is asked, from the brand,
 * the previous answer, or the script's own variables. Templates are checked when the script is
 * saved, so a run can fail to fill one in only when the previous answer lacks what it refers to.
 */

/** Placeholders filled from the previous answer: not allowed in the opening question. */
const FROM_PREVIOUS = {
  top_competitor_named: "the tracked competitor the previous answer named first",
  first_named: "the first tracked brand the previous answer named (the brand included)",
} as const;
const BUILT_IN = ["brand", ...Object.keys(FROM_PREVIOUS)];

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** Why a turn cannot be a template (an unknown placeholder, or the previous answer in the first turn), or null. */
export function templateIssue(turn: string, index: number, variables: Record<string, string>): string | null {
  for (const match of turn.matchAll(PLACEHOLDER)) {
    const name = (match[1] ?? "").trim();
    if (Object.hasOwn(FROM_PREVIOUS, name)) {
      if (index === 0) return `the opening question has no previous answer for {${name}} to refer to`;
      continue;
    }
    if (name === "brand" || Object.hasOwn(variables, name)) continue;
    return `{${name}} is not a placeholder; use ${BUILT_IN.map((n) => `{${n}}`).join(", ")} or a name of variables`;
  }
  return null;
}

/** The brands an answer named, first named first: the brand and its competitors, by position. */
function namedInOrder(measure: AnswerMeasure): { name: string; brand: boolean }[] {
  return [{ ...measure.brand, brand: true }, ...measure.competitors.map((c) => ({ ...c, brand: false }))]
    .filter((b) => b.mentioned && b.position !== null)
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    .map((b) => ({ name: b.name, brand: b.brand }));
}

export type Rendered = { ok: true; text: string } | { ok: false; reason: string };

/**
 * The turn as asked: its placeholders filled in. Fails, saying why, when it refers to something
 * the previous answer did not name (the conversation then stops there: a follow-up that made no
 * sense would measure nothing).
 */
export function renderTurn(
  turn: string,
  context: { brand: string; variables: Record<string, string>; previous: AnswerMeasure | null },
): Rendered {
  let reason: string | null = null;
  const text = turn.replace(PLACEHOLDER, (whole, raw: string) => {
    const name = raw.trim();
    if (name === "brand") return context.brand;
    if (Object.hasOwn(context.variables, name)) return context.variables[name] ?? whole;
    if (Object.hasOwn(FROM_PREVIOUS, name)) {
      const named = context.previous === null ? [] : namedInOrder(context.previous);
      const pick = name === "top_competitor_named" ? named.find((b) => !b.brand) : named[0];
      if (pick === undefined) {
        reason ??= `the previous answer named no ${name === "top_competitor_named" ? "tracked competitor" : "tracked brand"} for {${name}}`;
        return whole;
      }
      return pick.name;
    }
    reason ??= `{${name}} is not a placeholder`;
    return whole;
  });
  return reason === null ? { ok: true, text } : { ok: false, reason };
}
