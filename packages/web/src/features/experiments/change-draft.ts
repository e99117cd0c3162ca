import type { ChangeCreate } from "@sightline/sdk";
import { ApiError, errorMessage, fieldErrors } from "../../lib/api.ts";

/** The Record-a-change form's state, and its translation to the API's `ChangeCreate`. */
export interface ChangeDraft {
  title: string;
  /** `datetime-local`'s value, in the browser's time zone: "2026-11-20T09:30". */
  changedAt: string;
  /** The brand's pages that changed, one URL a line. */
  pages: string;
  placementUrl: string;
  /** Treated prompts proposed by Sightline (or the opportunity's), rather than chosen. */
  propose: boolean;
  treated: string[];
  /** The control prompts are the brand's other active prompts, rather than chosen. */
  restAsControl: boolean;
  control: string[];
  /** The effect to detect, in points; empty: Sightline chooses. */
  effect: string;
  opportunityId: string;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A moment as `datetime-local` shows it, in the browser's time zone (minutes, no seconds). */
function localDateTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function emptyChange(now: Date, prefill: { title?: string; opportunityId?: string } = {}): ChangeDraft {
  return {
    title: prefill.title ?? "",
    changedAt: localDateTime(now),
    pages: "",
    placementUrl: "",
    propose: true,
    treated: [],
    restAsControl: true,
    control: [],
    effect: "",
    opportunityId: prefill.opportunityId ?? "",
  };
}

function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

function isUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The form's own checks, before anything is sent: issues by the API's field names. */
export function checkChange(draft: ChangeDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (draft.title.trim() === "") errors.title = "Say what was changed, e.g. “Rewrote the pricing page”.";
  if (draft.changedAt === "" || Number.isNaN(new Date(draft.changedAt).getTime()))
    errors.changed_at = "Choose the date and time of the change.";
  const bad = lines(draft.pages).find((page) => !isUrl(page));
  if (bad !== undefined) errors.pages = `“${bad}” is not a page's address (https://…).`;
  const placement = draft.placementUrl.trim();
  if (placement !== "" && !isUrl(placement)) errors.placement_url = "An address starting with https://.";
  if (!draft.propose && draft.treated.length < 2) errors.prompts = "Choose at least 2 treated prompts.";
  if (!draft.restAsControl && draft.control.length < 2) errors.control_prompts = "Choose at least 2 control prompts.";
  // Left empty, Sightline chooses: 10 points, or the smallest the prompts can show.
  const effect = Number(draft.effect);
  if (draft.effect.trim() !== "" && (!Number.isFinite(effect) || effect < 2 || effect > 100))
    errors.effect = "A number of points from 2 to 100, or empty to let Sightline choose.";
  return errors;
}

export function changeBodyOf(draft: ChangeDraft): ChangeCreate {
  const pages = lines(draft.pages);
  const placement = draft.placementUrl.trim();
  const body: ChangeCreate = {
    title: draft.title.trim(),
    changed_at: new Date(draft.changedAt).toISOString(),
  };
  if (draft.effect.trim() !== "") body.effect = Number(draft.effect) / 100;
  if (pages.length > 0) body.pages = pages;
  if (placement !== "") body.placement_url = placement;
  if (!draft.propose) body.prompts = draft.treated;
  if (!draft.restAsControl) body.control_prompts = draft.control;
  if (draft.opportunityId !== "") body.opportunity_id = draft.opportunityId;
  return body;
}

/** The fields the form shows, by the API's names. */
const FIELDS = ["title", "changed_at", "pages", "placement_url", "prompts", "control_prompts", "effect"];

/**
 * The server's issues placed on the form: each next to its field (`pages[1]` → pages, with the
 * line it is about), the others (an opportunity gone meanwhile, an engine) on top.
 */
export function changeServerErrors(error: unknown): { fields: Record<string, string>; message?: string } {
  if (!(error instanceof ApiError) || error.details.length === 0) return { fields: {}, message: errorMessage(error) };
  const byField = fieldErrors(error);
  const fields: Record<string, string> = {};
  for (const name of FIELDS) {
    const issue = byField[name];
    if (issue === undefined) continue;
    const line = error.details.find((d) => d.field?.startsWith(`${name}[`))?.field?.match(/\[(\d+)\]/)?.[1];
    fields[name] = name === "pages" && line !== undefined ? `Line ${Number(line) + 1} ${issue}.` : `${capital(issue)}.`;
  }
  const rest = error.details
    .filter((d) => !FIELDS.some((name) => d.field === name || d.field?.startsWith(`${name}[`)))
    .map((d) => (d.field === "opportunity_id" ? `The opportunity ${d.issue}.` : `${d.field ?? ""} ${d.issue}.`.trim()));
  if (Object.keys(fields).length === 0) return { fields, message: rest.join(" ") || errorMessage(error) };
  return rest.length > 0 ? { fields, message: rest.join(" ") } : { fields };
}

function capital(text: string): string {
  return text === "" ? text : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
