import { validationError } from "../../errors/api-error.ts";
import { ownValue } from "../../lib/own-keys.ts";
import { PROJECT_LIMITS } from "../limits.ts";
import { cleanText, fold } from "./normalize-text.ts";

/** Letters and digits of any script, spaces, `-`, `_` and `:` (`persona:cto`, `funnel:awareness`). */
const TAG = /^[\p{L}\p{N} _:-]+$/u;

/** A tag as stored and compared: width-folded, lower-case, trimmed, inner spaces collapsed. */
function cleanTag(value: string): string {
  return value.normalize("NFKC").toLocaleLowerCase("en").replace(/\s+/g, " ").trim();
}

/** The tag as stored, or why it cannot be one. */
function checkTag(value: string): { ok: true; tag: string } | { ok: false; issue: string } {
  const tag = cleanTag(value);
  if (tag === "") return { ok: false, issue: "must not be empty" };
  if (tag.length > PROJECT_LIMITS.tagLength) {
    return { ok: false, issue: `must be at most ${PROJECT_LIMITS.tagLength} characters` };
  }
  if (!TAG.test(tag)) return { ok: false, issue: "may hold only letters, digits, spaces, -, _ and :" };
  return { ok: true, tag };
}

/** A `tag=` filter as stored, or VALIDATION_ERROR naming the parameter. */
export function tagFilter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const checked = checkTag(value);
  if (!checked.ok) throw validationError([{ field: "tag", issue: checked.issue }]);
  return checked.tag;
}

type Problem = (field: string, issue: string) => void;

/**
 * Tags and pauses as stored, against the project's prompts as stored: keys and entries are matched
 * like prompts (case, width and spacing ignored) and kept under the prompt's own spelling, in the
 * prompts' order; tags are cleaned and deduplicated, prompts without tags left out. A key or entry
 * that is not a tracked prompt, or a malformed tag, is a problem naming the prompt.
 */
export function organisePrompts(
  prompts: readonly string[],
  promptTags: Record<string, string[]>,
  pausedPrompts: readonly string[],
  problem: Problem,
): { prompt_tags: Record<string, string[]>; paused_prompts: string[] } {
  const tracked = new Map(prompts.map((prompt) => [fold(prompt), prompt]));
  const tagsOf = new Map<string, string[]>();
  for (const [key, tags] of Object.entries(promptTags)) {
    const prompt = tracked.get(fold(cleanText(key)));
    if (prompt === undefined) {
      problem("prompt_tags", `“${key}” is not one of the project's prompts`);
      continue;
    }
    const kept = tagsOf.get(prompt) ?? [];
    for (const raw of tags) {
      const checked = checkTag(raw);
      if (!checked.ok) problem("prompt_tags", `the tag “${raw}” of “${prompt}” ${checked.issue}`);
      else if (!kept.includes(checked.tag)) kept.push(checked.tag);
    }
    if (kept.length > PROJECT_LIMITS.tagsPerPrompt) {
      problem(
        "prompt_tags",
        `“${prompt}” has ${kept.length} tags; a prompt may have at most ${PROJECT_LIMITS.tagsPerPrompt}`,
      );
    }
    tagsOf.set(prompt, kept);
  }
  const paused = new Set<string>();
  for (const [index, value] of pausedPrompts.entries()) {
    const prompt = tracked.get(fold(cleanText(value)));
    if (prompt === undefined) problem(`paused_prompts[${index}]`, `“${value}” is not one of the project's prompts`);
    else paused.add(prompt);
  }
  // Built from entries: `out[prompt] = tags` would set the prototype of a prompt named `__proto__`.
  const promptTagsOut = Object.fromEntries(
    prompts.flatMap((prompt) => {
      const tags = tagsOf.get(prompt);
      return tags !== undefined && tags.length > 0 ? [[prompt, tags] as const] : [];
    }),
  );
  return { prompt_tags: promptTagsOut, paused_prompts: prompts.filter((prompt) => paused.has(prompt)) };
}

/**
 * What of a project's tags and pauses survives a change of its prompts that did not send them:
 * entries of prompts still tracked (matched like prompts), so a removed prompt drops its own.
 */
export function keepTracked(
  prompts: readonly string[],
  promptTags: Record<string, string[]>,
  pausedPrompts: readonly string[],
): { prompt_tags: Record<string, string[]>; paused_prompts: string[] } {
  const tracked = new Set(prompts.map((prompt) => fold(cleanText(prompt))));
  return {
    prompt_tags: Object.fromEntries(Object.entries(promptTags).filter(([prompt]) => tracked.has(fold(prompt)))),
    paused_prompts: pausedPrompts.filter((prompt) => tracked.has(fold(prompt))),
  };
}

interface Organised {
  prompts: string[];
  prompt_tags?: Record<string, string[]>;
  paused_prompts?: string[];
}

/** The prompts that are switched on: those analyses and monitoring ask by default. */
export function activePrompts(project: Organised): string[] {
  const paused = new Set(project.paused_prompts ?? []);
  return project.prompts.filter((prompt) => !paused.has(prompt));
}

/** The tracked prompts carrying `tag` (as stored), in the project's order. */
export function promptsTagged(project: Organised, tag: string): string[] {
  const tags = project.prompt_tags ?? {};
  return project.prompts.filter((prompt) => (ownValue(tags, prompt) ?? []).includes(tag));
}
