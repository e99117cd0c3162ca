import type { ConversationScript, ConversationScriptCreate } from "@sightline/sdk";
import { ApiError, errorMessage } from "../../lib/api.ts";

/** A row of the form's lists (a follow-up, a variable): `key` keeps React's rows apart. */
export interface FollowUpDraft {
  key: number;
  text: string;
}

export interface VariableDraft {
  key: number;
  name: string;
  value: string;
}

/** The script form's state, and its translation to the API's body. */
export interface ScriptDraft {
  name: string;
  opening: string;
  followUps: FollowUpDraft[];
  variables: VariableDraft[];
  /** "" for nobody in particular. */
  personaId: string;
  /** "" for no country. */
  country: string;
  active: boolean;
}

export const MAX_TURN_LENGTH = 2_000;
/** The placeholders a turn may use besides the script's variables; the last two only after the opening question. */
const BUILT_IN = ["brand", "top_competitor_named", "first_named"] as const;
const FROM_PREVIOUS = new Set(["top_competitor_named", "first_named"]);
const VARIABLE_NAME = /^[a-z][a-z0-9_]{0,39}$/;

let nextKey = 1;
/** A fresh key for a new row. */
export function rowKey(): number {
  return nextKey++;
}

export function emptyScript(): ScriptDraft {
  return {
    name: "",
    opening: "",
    followUps: [{ key: rowKey(), text: "" }],
    variables: [],
    personaId: "",
    country: "",
    active: true,
  };
}

export function scriptDraftOf(script: ConversationScript): ScriptDraft {
  const [opening = "", ...followUps] = script.turns;
  return {
    name: script.name,
    opening,
    followUps: followUps.map((text) => ({ key: rowKey(), text })),
    variables: Object.entries(script.variables).map(([name, value]) => ({ key: rowKey(), name, value })),
    personaId: script.persona_id ?? "",
    country: script.country ?? "",
    active: script.active,
  };
}

/** Why a turn's placeholders cannot be filled in, or undefined: as the server checks them, said for people. */
export function placeholderIssue(turn: string, index: number, variables: readonly string[]): string | undefined {
  for (const match of turn.matchAll(/\{([^{}]*)\}/g)) {
    const name = (match[1] ?? "").trim();
    if (FROM_PREVIOUS.has(name) && index === 0)
      return `The opening question has no previous answer for {${name}} to refer to: use it in a follow-up.`;
    if ((BUILT_IN as readonly string[]).includes(name) || variables.includes(name)) continue;
    return `{${name}} is not a placeholder: use {brand}, {top_competitor_named}, {first_named} or one of the variables below.`;
  }
  return undefined;
}

/** The form's own checks: issues by the form's field names (`turns.0` the opening question, `variables.2` a row). */
export function checkScript(draft: ScriptDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (draft.name.trim() === "") errors.name = "Name the script, e.g. “Shortlist, then a constraint”.";
  const names = draft.variables.map((v) => v.name.trim());
  const turns = [draft.opening, ...draft.followUps.map((f) => f.text)];
  turns.forEach((turn, index) => {
    const field = `turns.${index}`;
    if (turn.trim() === "")
      errors[field] = index === 0 ? "Write the question a buyer opens with." : "Write the follow-up, or remove it.";
    else if (turn.trim().length > MAX_TURN_LENGTH) errors[field] = `At most ${MAX_TURN_LENGTH} characters.`;
    else {
      const issue = placeholderIssue(turn, index, names);
      if (issue) errors[field] = issue;
    }
  });
  if (draft.followUps.length === 0)
    errors.followUps = "Add at least one follow-up: a conversation has two turns or more.";
  draft.variables.forEach((variable, index) => {
    const name = variable.name.trim();
    if (!VARIABLE_NAME.test(name))
      errors[`variables.${index}`] = "A name is lower-case letters, digits and _, starting with a letter (e.g. tool).";
    else if (names.indexOf(name) !== index) errors[`variables.${index}`] = `{${name}} is named twice.`;
    else if (variable.value.trim() === "") errors[`variables.${index}`] = `Give {${name}} a value, e.g. Slack.`;
    else if (variable.value.trim().length > 200) errors[`variables.${index}`] = "A value has at most 200 characters.";
  });
  return errors;
}

export function scriptBodyOf(draft: ScriptDraft): ConversationScriptCreate {
  return {
    name: draft.name.trim(),
    turns: [draft.opening, ...draft.followUps.map((f) => f.text)].map((turn) => turn.trim()),
    variables: Object.fromEntries(draft.variables.map((v) => [v.name.trim(), v.value.trim()])),
    persona_id: draft.personaId === "" ? null : draft.personaId,
    country: draft.country === "" ? null : draft.country,
    active: draft.active,
  };
}

function capital(text: string): string {
  return text === "" ? text : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * The server's issues placed on the form: `turns[2]` on the second follow-up, `variables.tool` on
 * the row naming {tool}, the persona and the country on theirs; the rest (a limit reached) on top.
 */
export function scriptServerErrors(
  error: unknown,
  draft: ScriptDraft,
): { fields: Record<string, string>; message?: string } {
  if (!(error instanceof ApiError) || error.details.length === 0) return { fields: {}, message: errorMessage(error) };
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  const put = (name: string, issue: string) => {
    fields[name] ??= `${capital(issue)}.`;
  };
  for (const { field = "", issue } of error.details) {
    const path = field.replace(/^(body\.|\/)/, "");
    const turn = /^turns\[(\d+)\]/.exec(path);
    const variable = /^variables\.(.+)$/.exec(path);
    if (path === "name" || path === "persona_id" || path === "country") put(path, issue);
    else if (turn) put(`turns.${turn[1]}`, issue);
    else if (path === "turns") put(draft.followUps.length === 0 ? "followUps" : "turns.0", issue);
    else if (variable) {
      const index = draft.variables.findIndex((v) => v.name.trim() === variable[1]);
      put(index >= 0 ? `variables.${index}` : "variables", issue);
    } else if (path === "variables") put("variables", issue);
    else rest.push(`${capital(path === "" ? issue : `${path} ${issue}`)}.`);
  }
  const message = rest.length > 0 ? rest.join(" ") : undefined;
  return Object.keys(fields).length === 0
    ? { fields, message: message ?? errorMessage(error) }
    : message
      ? { fields, message }
      : { fields };
}
