import type { Static } from "typebox";
import type { ServiceContext } from "../context.ts";
import { compileProject } from "../measurement/measure.ts";
import { measuredProject } from "../projects/measured.ts";
import { getProject } from "../projects/projects.ts";
import { resultColumns } from "../results/columns.ts";
import { periodOf } from "./period.ts";
import type { ProjectSearchesSchema } from "./schemas.ts";
import { checkFilters, type Filters, scopeOf } from "./tally.ts";

type ProjectSearches = Static<typeof ProjectSearchesSchema>;

interface Tally {
  answers: number;
  engines: Map<string, number>;
  spellings: Map<string, number>;
}

/** Searches that differ only in case or spacing are one search. */
const keyOf = (search: string) => search.toLowerCase().replace(/\s+/g, " ").trim();

function mostCommon(spellings: Map<string, number>): string {
  let best = "";
  let count = 0;
  for (const [spelling, n] of spellings) {
    if (n > count || (n === count && spelling < best)) {
      best = spelling;
      count = n;
    }
  }
  return best;
}

/**
 * The web searches engines ran while answering the brand's prompts in the period (query fan-out):
 * how many answers ran each, on which engines, and which tracked names it contains, found by the
 * measurement's own matcher (names, aliases, exclusion phrases). Read from the results themselves,
 * an indexed range of (workspace, project, created_at); each answer counts a search once.
 */
export async function projectSearches(
  ctx: ServiceContext,
  projectId: string,
  input: Omit<Filters, "prompt"> & { from?: string; to?: string; limit?: number },
): Promise<ProjectSearches> {
  await checkFilters(ctx, input);
  const project = await getProject(ctx, projectId);
  const period = periodOf(input, ctx.clock);
  const limit = input.limit ?? 50;
  let query = ctx.db
    .selectFrom("results")
    .select(["engine", "searches"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("created_at", ">=", period.from)
    .where("created_at", "<", period.to)
    .where("status", "=", "succeeded")
    .where("conversation_id", "is", null);
  if (input.engine !== undefined) query = query.where("engine", "=", input.engine);
  const { prompts } = scopeOf(project, input);
  if (prompts !== undefined) query = query.where("prompt", "in", prompts.length === 0 ? [""] : prompts);
  const rows = await query.execute();
  const tallies = new Map<string, Tally>();
  let withSearches = 0;
  for (const row of rows) {
    const searches = resultColumns.searches.read(row.searches);
    if (searches.length > 0) withSearches++;
    const seen = new Set<string>();
    for (const search of searches) {
      const key = keyOf(search);
      if (key === "" || seen.has(key)) continue;
      seen.add(key);
      const tally = tallies.get(key) ?? { answers: 0, engines: new Map(), spellings: new Map() };
      tally.answers++;
      tally.engines.set(row.engine, (tally.engines.get(row.engine) ?? 0) + 1);
      tally.spellings.set(search, (tally.spellings.get(search) ?? 0) + 1);
      tallies.set(key, tally);
    }
  }
  const top = [...tallies.entries()]
    .sort(([a, x], [b, y]) => y.answers - x.answers || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit);
  const { matcher } = compileProject(measuredProject(project));
  return {
    object: "project_searches",
    from: period.from,
    to: period.to,
    totals: { answers: rows.length, answers_with_searches: withSearches, searches: tallies.size },
    data: top.map(([, tally]) => {
      const search = mostCommon(tally.spellings);
      const named = new Set(matcher.occurrences(matcher.prepare(search)).found.map((o) => o.brand));
      return {
        search,
        answers: tally.answers,
        engines: Object.fromEntries([...tally.engines].sort(([a], [b]) => (a < b ? -1 : 1))),
        brand: named.has(0),
        // The matcher's brands are the project's own (0), then its competitors in order.
        competitors: project.competitors.filter((_, index) => named.has(index + 1)).map((c) => c.name),
      };
    }),
  };
}
