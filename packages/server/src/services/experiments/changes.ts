import type { Static } from "typebox";
import { type ErrorDetail, notFound, validationError } from "../../errors/api-error.ts";
import { hostIsOnDomain } from "../../lib/domains.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { ServiceContext } from "../context.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { listOpportunities } from "../opportunities/opportunities.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { fold } from "../projects/normalize-text.ts";
import { getProject } from "../projects/projects.ts";
import { activePrompts } from "../projects/prompt-tags.ts";
import { brandDomains } from "../traffic/access.ts";
import { pageKey } from "./answers.ts";
import { planAnswers, smallestEffect } from "./plan.ts";
import { pathWords, proposePrompts, topicWords } from "./propose.ts";
import type { ChangeCreateSchema } from "./schemas.ts";
import { type ChangeView, changeView } from "./view.ts";

export type ChangeInput = Static<typeof ChangeCreateSchema>;

const DAY_MS = 86_400_000;
const MAX_PAST_DAYS = 365;
const MAX_AHEAD_DAYS = 90;
const DEFAULT_EFFECT = 0.1;
/** The answers per prompt and engine an effect left out is chosen for, when 10 points cannot show. */
const DEFAULT_ANSWERS = 50;

/**
 * The effect planned for when none is given: 10 points, or, when the prompts are too few for 10
 * points to show at all, the smallest these prompts can show with 50 answers per prompt and engine
 * each side, rounded up to 5 points: a plan that can succeed rather than "more prompts needed".
 */
function defaultEffect(treated: number, control: number): number {
  if (planAnswers({ treatedPrompts: treated, controlPrompts: control, effect: DEFAULT_EFFECT }).answers !== null)
    return DEFAULT_EFFECT;
  const smallest = smallestEffect({ treatedPrompts: treated, controlPrompts: control, answers: DEFAULT_ANSWERS });
  return Math.min(1, Math.ceil(smallest * 20) / 20);
}

function httpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/** The brand's prompts among those given, as stored, each once; unknown ones reported. */
function ownPrompts(given: readonly string[], tracked: readonly string[], field: string, details: ErrorDetail[]) {
  const byFold = new Map(tracked.map((p) => [fold(p), p]));
  const out: string[] = [];
  given.forEach((prompt, index) => {
    const own = byFold.get(fold(prompt));
    if (own === undefined) details.push({ field: `${field}[${index}]`, issue: "is not one of the brand's prompts" });
    else if (!out.includes(own)) out.push(own);
  });
  return out;
}

/**
 * Records a change (issue 27). Treated prompts not given are the opportunity's (when it names
 * one), else proposed from the answers citing the changed pages or sharing their words; controls
 * not given are the brand's other active prompts. Two a side at least: fewer cannot be compared.
 */
export async function createChange(ctx: ServiceContext, projectId: string, input: ChangeInput): Promise<ChangeView> {
  const project = await getProject(ctx, projectId);
  const details: ErrorDetail[] = [];
  const now = ctx.clock.now();
  let changedAt = now;
  if (input.changed_at !== undefined) {
    const parsed = Date.parse(input.changed_at);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(input.changed_at) || Number.isNaN(parsed))
      details.push({ field: "changed_at", issue: "must be an ISO 8601 date and time, e.g. 2026-11-20T09:00:00Z" });
    else if (parsed < now.getTime() - MAX_PAST_DAYS * DAY_MS)
      details.push({ field: "changed_at", issue: `must be within the last ${MAX_PAST_DAYS} days` });
    else if (parsed > now.getTime() + MAX_AHEAD_DAYS * DAY_MS)
      details.push({ field: "changed_at", issue: `must be at most ${MAX_AHEAD_DAYS} days ahead` });
    else changedAt = new Date(parsed);
  }
  const domains = brandDomains(project);
  const pages: string[] = [];
  for (const [index, page] of (input.pages ?? []).entries()) {
    const field = `pages[${index}]`;
    if (!httpUrl(page)) details.push({ field, issue: "must be an http(s) URL" });
    else if (!domains.some((domain) => hostIsOnDomain(new URL(page).hostname, domain)))
      details.push({ field, issue: `is not on one of the brand's domains (${domains.join(", ")})` });
    else if (!pages.includes(page)) pages.push(page);
  }
  const placement = input.placement_url ?? null;
  if (placement !== null && !httpUrl(placement))
    details.push({ field: "placement_url", issue: "must be an http(s) URL" });

  const known = await workspaceEngines(ctx);
  const engines = [...new Set(input.engines ?? project.engines)];
  engines.forEach((engine, index) => {
    if (!known.isKnown(engine))
      details.push({
        field: `engines[${index}]`,
        issue: `unknown engine '${engine}'; engines are ${known.names().join(", ")}`,
      });
  });

  let opportunityPrompts: string[] = [];
  if (input.opportunity_id !== undefined) {
    const { data } = await listOpportunities(ctx, projectId, { limit: 100 });
    const opportunity = data.find((o) => o.id === input.opportunity_id);
    if (opportunity === undefined)
      details.push({ field: "opportunity_id", issue: "is not one of the brand's current opportunities" });
    else opportunityPrompts = opportunity.prompts;
  }

  const active = activePrompts(project);
  const given = input.prompts !== undefined;
  let treated = given ? ownPrompts(input.prompts ?? [], project.prompts, "prompts", details) : [];
  let proposed = false;
  if (!given) {
    const fromOpportunity = ownPrompts(opportunityPrompts, active, "opportunity_id", []);
    if (fromOpportunity.length >= 2) treated = fromOpportunity;
    else if (details.length === 0) {
      const keys = [...pages, ...(placement === null ? [] : [placement])].map(pageKey).filter((k) => k !== null);
      const words = topicWords([
        input.title,
        ...pages.flatMap(pathWords),
        ...(placement === null ? [] : pathWords(placement)),
      ]);
      treated = await proposePrompts(ctx, {
        projectId,
        prompts: active,
        engines,
        pages: keys,
        words,
        // Half the prompts at most (and two left as controls): the estimate is surest when the sides are even.
        most: Math.min(active.length - 2, Math.max(2, Math.ceil(active.length / 2))),
      });
      if (fromOpportunity.length === 1 && !treated.includes(fromOpportunity[0] as string))
        treated.unshift(fromOpportunity[0] as string);
    }
    proposed = true;
  }
  const inTreated = new Set(treated.map(fold));
  const control =
    input.control_prompts !== undefined
      ? ownPrompts(input.control_prompts, project.prompts, "control_prompts", details)
      : active.filter((p) => !inTreated.has(fold(p)));
  control.forEach((prompt, index) => {
    if (inTreated.has(fold(prompt)))
      details.push({
        field: `control_prompts[${index}]`,
        issue: "is also a treated prompt; a prompt is one or the other",
      });
  });
  if (details.length === 0 && treated.length < 2)
    details.push({
      field: "prompts",
      issue: proposed
        ? "too few of the brand's prompts cite these pages or share their words to propose two; name the treated prompts"
        : "needs at least 2 treated prompts",
    });
  if (details.length === 0 && control.length < 2)
    details.push({ field: "control_prompts", issue: "needs at least 2 control prompts; the brand needs more prompts" });
  if (details.length > 0) throw validationError(details);

  const at = now.toISOString();
  const row = {
    id: newId("chg"),
    workspace_id: ctx.workspace.id,
    project_id: projectId,
    title: input.title.trim(),
    changed_at: changedAt.toISOString(),
    pages: toJson(pages),
    placement_url: placement,
    prompts: toJson(treated),
    control_prompts: toJson(control),
    prompts_proposed: proposed,
    engines: toJson(engines),
    effect: input.effect ?? defaultEffect(treated.length, control.length),
    opportunity_id: input.opportunity_id ?? null,
    schedule_id: null,
    result_at: null,
    created_at: at,
    updated_at: at,
  };
  await ctx.db.insertInto("changes").values(row).execute();
  return changeView(ctx, row);
}

export async function findChange(ctx: ServiceContext, projectId: string, changeId: string) {
  await getProject(ctx, projectId);
  const row = await ctx.db
    .selectFrom("changes")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("id", "=", changeId)
    .executeTakeFirst();
  if (row === undefined) throw notFound("change", changeId);
  return row;
}

export async function getChange(ctx: ServiceContext, projectId: string, changeId: string): Promise<ChangeView> {
  return changeView(ctx, await findChange(ctx, projectId, changeId));
}

/** The brand's changes, newest recorded first, each with its figures. */
export async function listChanges(
  ctx: ServiceContext,
  projectId: string,
  params: PageParams,
): Promise<Page<ChangeView>> {
  await getProject(ctx, projectId);
  const query = ctx.db
    .selectFrom("changes")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId);
  const page = await fetchPage(query, params, (row) => row);
  const data: ChangeView[] = [];
  for (const row of page.data) data.push(await changeView(ctx, row));
  return { ...page, data };
}

/**
 * The brand's finished experiments for a report: changes whose result was ready by `until`, the
 * most recent result first, at most `limit`, each with every figure (frozen at its result).
 */
export async function finishedChanges(
  ctx: ServiceContext,
  projectId: string,
  until: string,
  limit = 10,
): Promise<ChangeView[]> {
  const rows = await ctx.db
    .selectFrom("changes")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("result_at", "is not", null)
    .where("result_at", "<=", until)
    .orderBy("result_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  const views: ChangeView[] = [];
  for (const row of rows) views.push(await changeView(ctx, row));
  return views;
}
