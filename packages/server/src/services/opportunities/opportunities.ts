import type { Static } from "typebox";
import { toJson } from "../../lib/json.ts";
import type { ServiceContext } from "../context.ts";
import { getProject } from "../projects/projects.ts";
import { brandDomains } from "../traffic/access.ts";
import { crawlerBasis, crawlerFindings } from "../traffic/access-findings.ts";
import { storedAs } from "../validate.ts";
import { answerRowOf, subjectOf } from "./answers.ts";
import { computeOpportunities } from "./compute.ts";
import { crawlerOpportunities } from "./crawlers.ts";
import {
  OPPORTUNITY_SCAN_LIMIT,
  OPPORTUNITY_WINDOW_DAYS,
  type OpportunityListSchema,
  StoredOpportunitiesSchema,
} from "./schemas.ts";

type OpportunityList = Static<typeof OpportunityListSchema>;
type Stored = Static<typeof StoredOpportunitiesSchema>;

const stored = storedAs("opportunity_sets.data", StoredOpportunitiesSchema);
const DAY_MS = 86_400_000;
/**
 * The version of the titles' and explanations' wording, part of what a stored list rests on: a
 * list stored in older words (engines by id, issue 24; before the crawler kinds, issue 26) is
 * computed again on its next read.
 */
const WORDING = "3";

/**
 * The project's opportunities. They are computed from the last 30 days' answers (the most recent
 * 5,000 at most) and kept; a read computes them again when something they depend on changed: a
 * newer finished analysis, an edit of the project (its facts, competitors, domains, engines), a
 * new access check of its domains or a new import of its access logs, a new UTC day (the window
 * moved), or new wording. So they are refreshed after every analysis, and never read stale.
 */
export async function listOpportunities(
  ctx: ServiceContext,
  projectId: string,
  query: { kind?: string; limit?: number },
): Promise<OpportunityList> {
  const project = await getProject(ctx, projectId);
  const latest = await ctx.db
    .selectFrom("analyses")
    .select((eb) => eb.fn.max("completed_at").as("at"))
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  const now = ctx.clock.now();
  const basis = [
    WORDING,
    latest?.at ?? "",
    project.updated_at,
    now.toISOString().slice(0, 10),
    await crawlerBasis(ctx, projectId),
  ].join("|");
  const row = await ctx.db
    .selectFrom("opportunity_sets")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  let set: Stored;
  let computedAt: string;
  if (row !== undefined && row.basis === basis) {
    set = stored.read(row.data);
    computedAt = row.computed_at;
  } else {
    set = await compute(ctx, projectId, now);
    computedAt = now.toISOString();
    const values = { workspace_id: ctx.workspace.id, computed_at: computedAt, basis, data: toJson(set) };
    await ctx.db
      .insertInto("opportunity_sets")
      .values({ project_id: projectId, ...values })
      .onConflict((oc) => oc.column("project_id").doUpdateSet(values))
      .execute();
  }
  const data = set.data.filter((o) => query.kind === undefined || o.kind === query.kind).slice(0, query.limit ?? 20);
  return { object: "opportunities", from: set.from, to: set.to, computed_at: computedAt, scanned: set.scanned, data };

  async function compute(ctx: ServiceContext, id: string, at: Date): Promise<Stored> {
    const to = at.toISOString();
    const from = new Date(at.getTime() - OPPORTUNITY_WINDOW_DAYS * DAY_MS).toISOString();
    const rows = await ctx.db
      .selectFrom("results")
      .select(["id", "analysis_id", "engine", "prompt", "created_at", "mentioned", "text", "measure", "searches"])
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "=", id)
      .where("status", "=", "succeeded")
      .where("conversation_id", "is", null)
      .where("created_at", ">=", from)
      .where("created_at", "<", to)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(OPPORTUNITY_SCAN_LIMIT)
      .execute();
    const answers = rows.map(answerRowOf);
    const findings = await crawlerFindings(ctx, id, brandDomains(project));
    const crawlers = crawlerOpportunities(findings, project.engines, answers);
    return { from, to, scanned: answers.length, data: computeOpportunities(answers, subjectOf(project), crawlers) };
  }
}
