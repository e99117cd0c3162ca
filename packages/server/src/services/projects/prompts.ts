import { validationError } from "../../errors/api-error.ts";
import { ownValue } from "../../lib/own-keys.ts";
import type { ServiceContext } from "../context.ts";
import { PROJECT_LIMITS } from "../limits.ts";
import { cleanText, fold } from "./normalize-text.ts";
import { changeProject } from "./projects.ts";
import type { Project } from "./types.ts";

/**
 * One prompt at a time, on the brand as it is when the change is applied (under its row lock): two
 * people adding prompts at once both get theirs, where resending the whole list would drop one.
 */

/** The tracked prompt `value` names (case, width and spacing ignored), or VALIDATION_ERROR. */
function tracked(project: Project, value: string): string {
  const wanted = fold(cleanText(value));
  const prompt = project.prompts.find((p) => fold(p) === wanted);
  if (prompt === undefined) throw validationError([{ field: "prompt", issue: "is not one of the brand's prompts" }]);
  return prompt;
}

/** Tags by prompt, with `prompt`'s set to `tags` (kept when undefined) under `renamed`; none: removed. */
function withTags(project: Project, prompt: string, tags: string[] | undefined, renamed: string) {
  const all = project.prompt_tags ?? {};
  // Built from entries: `out[prompt] = tags` would set the prototype of a prompt named `__proto__`.
  const entries = Object.entries(all).filter(([key]) => key !== prompt);
  const own = tags ?? ownValue(all, prompt) ?? [];
  if (own.length > 0) entries.push([renamed, own]);
  return Object.fromEntries(entries);
}

export async function addPrompt(
  ctx: ServiceContext,
  projectId: string,
  input: { prompt: string; tags?: string[]; paused?: boolean },
): Promise<Project> {
  return changeProject(ctx, projectId, (current) => {
    const text = cleanText(input.prompt);
    if (text === "") throw validationError([{ field: "prompt", issue: "must not be empty" }]);
    if (current.prompts.some((p) => fold(p) === fold(text))) {
      throw validationError([{ field: "prompt", issue: "is already one of the brand's prompts" }]);
    }
    if (current.prompts.length >= PROJECT_LIMITS.prompts) {
      throw validationError([
        { field: "prompt", issue: `the brand already tracks ${PROJECT_LIMITS.prompts} prompts, the most it can` },
      ]);
    }
    const tags = Object.fromEntries([
      ...Object.entries(current.prompt_tags ?? {}),
      ...(input.tags === undefined || input.tags.length === 0 ? [] : [[text, input.tags] as const]),
    ]);
    const paused = current.paused_prompts ?? [];
    return {
      prompts: [...current.prompts, text],
      prompt_tags: tags,
      paused_prompts: input.paused === true ? [...paused, text] : paused,
    };
  });
}

/**
 * Rewords, tags, pauses or resumes one tracked prompt. A new wording is a new question to the
 * engines: the answers so far keep the wording they were asked with (their figures stay under it),
 * and the prompt's tags and pause follow it to its new wording.
 */
export async function changePrompt(
  ctx: ServiceContext,
  projectId: string,
  input: { prompt: string; text?: string; tags?: string[]; paused?: boolean },
): Promise<Project> {
  return changeProject(ctx, projectId, (current) => {
    const prompt = tracked(current, input.prompt);
    let text = prompt;
    if (input.text !== undefined) {
      text = cleanText(input.text);
      if (text === "") throw validationError([{ field: "text", issue: "must not be empty" }]);
      if (current.prompts.some((p) => p !== prompt && fold(p) === fold(text))) {
        throw validationError([{ field: "text", issue: "is already one of the brand's prompts" }]);
      }
    }
    const wasPaused = (current.paused_prompts ?? []).includes(prompt);
    const paused = input.paused ?? wasPaused;
    return {
      prompts: current.prompts.map((p) => (p === prompt ? text : p)),
      prompt_tags: withTags(current, prompt, input.tags, text),
      paused_prompts: [...(current.paused_prompts ?? []).filter((p) => p !== prompt), ...(paused ? [text] : [])],
    };
  });
}

/** Stops tracking one prompt; its tags and pause go with it, its answers so far are kept. */
export async function removePrompt(ctx: ServiceContext, projectId: string, value: string): Promise<Project> {
  return changeProject(ctx, projectId, (current) => {
    const prompt = tracked(current, value);
    return { prompts: current.prompts.filter((p) => p !== prompt) };
  });
}
