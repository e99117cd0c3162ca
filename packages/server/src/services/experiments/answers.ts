import { normalizeDomain } from "../../lib/domains.ts";
import type { ServiceContext } from "../context.ts";
import { fold } from "../projects/normalize-text.ts";
import { resultColumns } from "../results/columns.ts";
import type { WindowAnswer } from "./figures.ts";

/** A page as the citations are compared with it: host without `www.`, path without query or trailing slash. */
export function pageKey(url: string): string | null {
  try {
    const parsed = new URL(url);
    const host = normalizeDomain(parsed.hostname);
    if (host === null) return null;
    let path = parsed.pathname;
    if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
    return `${host}${path === "" ? "/" : path}`;
  } catch {
    return null;
  }
}

export interface AnswerQuery {
  projectId: string;
  treated: readonly string[];
  control: readonly string[];
  engines: readonly string[];
  /** Pages whose citation counts (changed pages and the placement), as pageKey()s. */
  pages: readonly string[];
  changedAt: number;
  from: number;
  to: number;
}

/**
 * The stored answers an experiment reads: succeeded results of its prompts on its engines in
 * [from, to], each marked treated or control, before or after the change, and whether it cites
 * one of the changed pages. Prompts are read as the brand tracks them, and sided folded.
 */
export async function windowAnswers(ctx: ServiceContext, query: AnswerQuery): Promise<WindowAnswer[]> {
  if (query.to <= query.from || query.engines.length === 0) return [];
  const side = new Map<string, boolean>();
  for (const prompt of query.control) side.set(fold(prompt), false);
  for (const prompt of query.treated) side.set(fold(prompt), true);
  const pages = new Set(query.pages);
  const prompts = [...query.treated, ...query.control];
  if (prompts.length === 0) return [];
  const rows = await ctx.db
    .selectFrom("results")
    .select(["prompt", "engine", "mentioned", "created_at"])
    // The measure (for its citations) only when a page is compared: it is the row's bulk.
    .$if(pages.size > 0, (q) => q.select("measure"))
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", query.projectId)
    .where("status", "=", "succeeded")
    .where("conversation_id", "is", null)
    .where("engine", "in", [...query.engines])
    // The prompts as the brand tracks them (answers are stored with the prompt as asked).
    .where("prompt", "in", prompts)
    .where("created_at", ">=", new Date(query.from).toISOString())
    // Up to `to` inclusive: the answers of the analysis whose finishing settles a change carry
    // the time it settles at when the clock has not moved since (one transaction, a fixed clock),
    // and they are among the answers its result rests on.
    .where("created_at", "<=", new Date(query.to).toISOString())
    .execute();
  const answers: WindowAnswer[] = [];
  for (const row of rows) {
    const treated = side.get(fold(row.prompt));
    if (treated === undefined) continue;
    const at = Date.parse(row.created_at);
    let cited = false;
    if (pages.size > 0 && typeof row.measure === "string") {
      const measure = resultColumns.measure.read(row.measure);
      cited = measure.citations.some((c) => {
        const key = pageKey(c.url);
        return key !== null && pages.has(key);
      });
    }
    answers.push({
      prompt: fold(row.prompt),
      treated,
      after: at >= query.changedAt,
      mentioned: Boolean(row.mentioned),
      engine: row.engine,
      cited,
      at,
    });
  }
  return answers;
}
