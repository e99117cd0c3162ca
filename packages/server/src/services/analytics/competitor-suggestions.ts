import type { Static } from "typebox";
import type { ServiceContext } from "../context.ts";
import { proportion } from "../measurement/aggregate.ts";
import { compileProject } from "../measurement/measure.ts";
import { fold } from "../measurement/normalize.ts";
import { measuredProject } from "../projects/measured.ts";
import { getProject } from "../projects/projects.ts";
import type { Project } from "../projects/types.ts";
import { brandCandidates, type Candidate, candidateOf, type FoundIn } from "./brand-candidates.ts";
import { periodOf } from "./period.ts";
import { type CompetitorSuggestionsSchema, SUGGESTION_SCAN_LIMIT } from "./suggestion-schemas.ts";
import { checkFilters, type Filters, scopeOf } from "./tally.ts";

type CompetitorSuggestions = Static<typeof CompetitorSuggestionsSchema>;

/** A brand must be named by at least this many answers to be suggested: one answer is noise. */
const MIN_ANSWERS = 2;

interface Tally {
  answers: number;
  engines: Map<string, number>;
  spellings: Map<string, number>;
  positions: number[];
  foundIn: Set<FoundIn>;
  examples: string[];
}

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
 * Whether a name is the project's already: its brand, a competitor or one of their aliases (as
 * the measurement folds them), a name the measurement's matcher finds a tracked brand in ("HubSpot
 * CRM"), or a name containing one of the project's exclusion phrases.
 */
function trackedTest(project: Project): (name: string) => boolean {
  const names = [
    project.name,
    ...project.aliases,
    ...(project.case_sensitive_aliases ?? []),
    ...project.competitors.flatMap((c) => [c.name, ...c.aliases, ...(c.case_sensitive_aliases ?? [])]),
  ];
  const keys = new Set(names.map(fold));
  const exclusions = (project.exclusions ?? []).map(fold).filter((phrase) => phrase !== "");
  const { matcher } = compileProject(measuredProject(project));
  return (name) => {
    const key = fold(name);
    if (keys.has(key) || exclusions.some((phrase) => key.includes(phrase))) return true;
    return matcher.occurrences(matcher.prepare(name)).found.length > 0;
  };
}

/** The untracked names one answer puts forward, each once, with its best list place. */
function answerCandidates(text: string, tracked: (name: string) => boolean): Candidate[] {
  const { found, pairs } = brandCandidates(text);
  for (const [a, b] of pairs) {
    const other = tracked(a) ? b : tracked(b) ? a : null;
    const candidate = other === null ? null : candidateOf(other, "comparison");
    if (candidate !== null) found.push(candidate);
  }
  return found.filter((candidate) => !tracked(candidate.name));
}

/**
 * Brands the period's answers name that the project does not track: found where answers name
 * brands (list items, table rows, bold names, "X vs Y" next to a tracked brand), merged across
 * spellings that differ only in case or typography, counted once per answer. Reads the most
 * recent answers of the period (an indexed range of (workspace, project, created_at)), at most
 * SUGGESTION_SCAN_LIMIT of them, and says whether it stopped there. Examples are the most recent.
 */
export async function competitorSuggestions(
  ctx: ServiceContext,
  projectId: string,
  input: Omit<Filters, "prompt"> & { from?: string; to?: string; limit?: number },
  scanLimit: number = SUGGESTION_SCAN_LIMIT,
): Promise<CompetitorSuggestions> {
  await checkFilters(ctx, input);
  const project = await getProject(ctx, projectId);
  const period = periodOf(input, ctx.clock);
  const { prompts } = scopeOf(project, input);
  const range = (from: string) => {
    let query = ctx.db
      .selectFrom("results")
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "=", projectId)
      .where("created_at", ">=", from)
      .where("created_at", "<", period.to)
      .where("status", "=", "succeeded");
    if (input.engine !== undefined) query = query.where("engine", "=", input.engine);
    // A tag no prompt carries: no prompt is the empty text, so nothing is read.
    if (prompts !== undefined) query = query.where("prompt", "in", prompts.length === 0 ? [""] : prompts);
    return query;
  };
  // Counting first keeps the common case (a period within the cap) to one unordered read of the
  // (workspace, project, created_at) index: asked for an order, SQLite's planner walks the
  // workspace-wide index instead. A longer period is cut at its most recent answers.
  const total = Number(
    (
      await range(period.from)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst()
    )?.n ?? 0,
  );
  const capped = total > scanLimit;
  let from = period.from;
  if (capped) {
    const cutoff = await range(period.from)
      .select("created_at")
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .offset(scanLimit - 1)
      .limit(1)
      .executeTakeFirst();
    if (cutoff !== undefined) from = cutoff.created_at;
  }
  const rows = (await range(from).select(["id", "engine", "text", "created_at"]).execute())
    .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
    .slice(0, scanLimit);
  const tracked = trackedTest(project);
  const known = new Map<string, boolean>();
  const isTracked = (name: string) => {
    let answer = known.get(name);
    if (answer === undefined) {
      answer = tracked(name);
      known.set(name, answer);
    }
    return answer;
  };
  const tallies = new Map<string, Tally>();
  for (const row of rows) {
    const seen = new Map<string, { position: number | null; spelling: string }>();
    for (const candidate of answerCandidates(row.text ?? "", isTracked)) {
      const tally = tallies.get(candidate.key) ?? {
        answers: 0,
        engines: new Map(),
        spellings: new Map(),
        positions: [],
        foundIn: new Set<FoundIn>(),
        examples: [],
      };
      tallies.set(candidate.key, tally);
      tally.foundIn.add(candidate.foundIn);
      const before = seen.get(candidate.key);
      const position =
        before?.position == null ? candidate.position : Math.min(before.position, candidate.position ?? Infinity);
      seen.set(candidate.key, { position, spelling: before?.spelling ?? candidate.name });
    }
    for (const [key, { position, spelling }] of seen) {
      const tally = tallies.get(key);
      if (tally === undefined) continue;
      tally.answers++;
      tally.engines.set(row.engine, (tally.engines.get(row.engine) ?? 0) + 1);
      tally.spellings.set(spelling, (tally.spellings.get(spelling) ?? 0) + 1);
      if (position !== null) tally.positions.push(position);
      if (tally.examples.length < 2) tally.examples.push(row.id);
    }
  }
  const top = [...tallies.entries()]
    .filter(([, tally]) => tally.answers >= MIN_ANSWERS)
    .map(([, tally]) => ({ name: mostCommon(tally.spellings), tally }))
    .sort((x, y) => y.tally.answers - x.tally.answers || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    .slice(0, input.limit ?? 20);
  return {
    object: "competitor_suggestions",
    from: period.from,
    to: period.to,
    scanned: rows.length,
    capped,
    data: top.map(({ name, tally }) => ({
      name,
      answers: tally.answers,
      visibility: proportion(tally.answers, rows.length),
      engines: Object.fromEntries([...tally.engines].sort(([a], [b]) => (a < b ? -1 : 1))),
      average_position:
        tally.positions.length === 0
          ? null
          : Math.round((tally.positions.reduce((sum, p) => sum + p, 0) / tally.positions.length) * 100) / 100,
      found_in: (["list", "table", "bold", "comparison"] as const).filter((place) => tally.foundIn.has(place)),
      examples: tally.examples,
    })),
  };
}
