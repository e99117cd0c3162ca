import type { Selectable } from "kysely";
import type { AnalysesTable, ResultsTable } from "../../db/tables.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import { analysisColumns } from "../analyses/columns.ts";
import type { AnalysisFinishedHook } from "../analyses/finish.ts";
import { summarizeResults } from "../analyses/summary.ts";
import type { Deps, ServiceContext } from "../context.ts";
import { citationCategory } from "../measurement/citations.ts";
import { rowToFiredAlert } from "../monitoring/alert-list.ts";
import { answerRowOf, subjectOf } from "../opportunities/answers.ts";
import { computeOpportunities } from "../opportunities/compute.ts";
import { liveProjectIds } from "../projects/live.ts";
import { rowToProject } from "../projects/row.ts";
import { resultColumns } from "../results/columns.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";
import { reportAudiences, reportConversations } from "./conversations.ts";
import { reportExperiments } from "./experiments.ts";
import { citedKinds } from "./reports.ts";
import { reportTitle, uniqueTitle } from "./titles.ts";
import { reportTraffic } from "./traffic.ts";
import type { HistoryPoint, ReportData, ReportType, ResultRow, StoredReportData } from "./types.ts";

const HISTORY_POINTS = 30;
/** How far back a report's title is checked against the brand's others (a week and a day). */
const TITLE_WINDOW_MS = 8 * 86_400_000;

/** One answer as a report's table shows it (its CSV row). */
export function resultRow(row: Selectable<ResultsTable>): ResultRow {
  const measure = resultColumns.measure.readNullable(row.measure);
  // Each cited domain once, with the category of its first citation.
  const domains = new Map<string, string>();
  for (const c of measure?.citations ?? []) if (!domains.has(c.domain)) domains.set(c.domain, citationCategory(c));
  return {
    id: row.id,
    created_at: row.created_at,
    engine: row.engine,
    model: row.model,
    prompt: row.prompt,
    sample: row.sample,
    status: row.status,
    mentioned: row.mentioned,
    position: row.position,
    sentiment: row.sentiment,
    brand_cited: row.brand_cited,
    score: row.score,
    cited_domains: [...domains.keys()],
    competitors_mentioned: (measure?.competitors ?? []).filter((c) => c.mentioned).map((c) => c.name),
    cited_domain_categories: [...domains.values()],
    searches: resultColumns.searches.read(row.searches),
  };
}

function point(analysis: Selectable<AnalysesTable>): HistoryPoint | null {
  const summary = analysisColumns.summary.readNullable(analysis.summary);
  if (summary === null || analysis.completed_at === null) return null;
  return {
    at: analysis.completed_at,
    analysis_id: analysis.id,
    visibility: summary.overall.visibility.value,
    share_of_voice: summary.overall.share_of_voice,
    average_position: summary.overall.average_position,
    visibility_score: summary.overall.visibility_score,
    by_engine: Object.fromEntries(Object.entries(summary.by_engine).map(([engine, s]) => [engine, s.visibility.value])),
  };
}

/** The answers of some analyses, oldest first. */
async function answersOf(ctx: ServiceContext, analyses: Selectable<AnalysesTable>[]) {
  const ids = analyses.map((a) => a.id);
  return ids.length === 0
    ? []
    : await ctx.db
        .selectFrom("results")
        .selectAll()
        .where("workspace_id", "=", ctx.workspace.id)
        .where("analysis_id", "in", ids)
        // A conversation's turns have their own measures (issue 29), not the prompts' figures.
        .where("conversation_id", "is", null)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
}

/** The period before a report's, for its period-over-period figures. */
interface Previous {
  analyses: Selectable<AnalysesTable>[];
  start: string;
  end: string;
}

/** How many opportunities a report leads with. */
const TOP_OPPORTUNITIES = 3;

async function build(
  ctx: ServiceContext,
  projectId: string,
  analyses: Selectable<AnalysesTable>[],
  history: Selectable<AnalysesTable>[],
  alertFilter: { runId?: string; from?: string; to?: string },
  source: ReportData["source"],
  previous: Previous | null,
  period: { start: string; end: string },
): Promise<StoredReportData> {
  const projectRow = await ctx.db
    .selectFrom("projects")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", projectId)
    .executeTakeFirstOrThrow();
  const project = rowToProject(projectRow);
  const ids = analyses.map((a) => a.id);
  const rows = await answersOf(ctx, analyses);
  const engines = [...new Set(analyses.flatMap((a) => analysisColumns.engines.read(a.engines)))];
  const prompts = [...new Set(analyses.flatMap((a) => analysisColumns.prompts.read(a.prompts)))];
  const competitors = project.competitors.map((c) => c.name);
  const before =
    previous === null || previous.analyses.length === 0
      ? null
      : summarizeResults(
          await answersOf(ctx, previous.analyses),
          competitors,
          [...new Set(previous.analyses.flatMap((a) => analysisColumns.engines.read(a.engines)))],
          [...new Set(previous.analyses.flatMap((a) => analysisColumns.prompts.read(a.prompts)))],
        );
  const succeeded = rows.filter((r) => r.status === "succeeded");
  const opportunities = computeOpportunities(succeeded.map(answerRowOf), subjectOf(project))
    .slice(0, TOP_OPPORTUNITIES)
    .map((o) => ({
      kind: o.kind,
      title: o.title,
      explanation: o.explanation,
      impact: o.impact,
      answers: o.answers,
      engines: o.engines,
    }));
  let alerts = ctx.db
    .selectFrom("alerts")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId);
  if (alertFilter.runId !== undefined) alerts = alerts.where("run_id", "=", alertFilter.runId);
  if (alertFilter.from !== undefined) alerts = alerts.where("created_at", ">=", alertFilter.from);
  if (alertFilter.to !== undefined) alerts = alerts.where("created_at", "<", alertFilter.to);
  const traffic = await reportTraffic(ctx, project, period);
  const experiments = await reportExperiments(ctx, project, period);
  const conversations = await reportConversations(ctx, project, period);
  const audiences = await reportAudiences(ctx, project, period);
  return {
    project: {
      id: project.id,
      name: project.name,
      primary_domain: project.primary_domain,
      competitors: project.competitors.map((c) => c.name),
    },
    source,
    // Recomputed from the stored per-answer counts, never averaged from stored percentages.
    summary: summarizeResults(rows, competitors, engines, prompts),
    previous:
      before === null || previous === null
        ? null
        : { start: previous.start, end: previous.end, overall: before.overall, by_engine: before.by_engine },
    opportunities,
    // Absent, not empty, for a brand without AI traffic: most brands import no logs.
    ...(traffic === undefined ? {} : { traffic }),
    // Absent, not empty, for a brand without a finished experiment.
    ...(experiments === undefined ? {} : { experiments }),
    // Absent, not empty, for a brand without conversations or without personas and countries to compare.
    ...(conversations === undefined ? {} : { conversations }),
    ...(audiences === undefined ? {} : { audiences }),
    history: history.map(point).filter((p): p is HistoryPoint => p !== null),
    alerts: (await alerts.orderBy("created_at").execute()).map(rowToFiredAlert),
    // The answers are referenced, not embedded: the report's size does not grow with them.
    result_count: rows.length,
    analysis_ids: ids,
    cited_kinds: citedKinds(rows.map(resultRow)),
  };
}

async function store(
  ctx: ServiceContext,
  report: {
    type: ReportType;
    projectId: string;
    start: string;
    end: string;
    dedupeKey: string;
    data: StoredReportData;
  },
): Promise<void> {
  const title = reportTitle({
    brand: report.data.project.name,
    type: report.type,
    start: report.start,
    end: report.end,
    engines: Object.keys(report.data.summary.by_engine),
  });
  // A title names its minute (or week): only the brand's recent reports can have it already, as
  // when two analyses finish in the same minute; the second is "(2)".
  const taken = await ctx.db
    .selectFrom("reports")
    .select("title")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", report.projectId)
    .where("created_at", ">=", new Date(ctx.clock.now().getTime() - TITLE_WINDOW_MS).toISOString())
    .execute();
  await ctx.db
    .insertInto("reports")
    .values({
      id: newId("rpt"),
      workspace_id: ctx.workspace.id,
      project_id: report.projectId,
      type: report.type,
      analysis_id: report.data.source.analysis_id,
      run_id: report.data.source.run_id,
      schedule_id: report.data.source.schedule_id,
      period_start: report.start,
      period_end: report.end,
      dedupe_key: report.dedupeKey,
      title: uniqueTitle(
        title,
        taken.map((t) => t.title),
      ),
      data: toJson(report.data),
      created_at: ctx.clock.now().toISOString(),
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .execute();
}

/**
 * The report of a finished analysis or monitoring run, written in its final transaction and never
 * changed afterwards. Its history is the brand's previous analyses of the same kind (the same
 * schedule for a run), up to 30.
 */
export async function reportForAnalysis(ctx: ServiceContext, analysis: Selectable<AnalysesTable>): Promise<void> {
  if (analysis.completed_at === null) return;
  let history = ctx.db
    .selectFrom("analyses")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", analysis.project_id)
    .where("status", "=", "completed")
    .where("created_at", "<=", analysis.created_at);
  history =
    analysis.schedule_id === null
      ? history.where("schedule_id", "is", null)
      : history.where("schedule_id", "=", analysis.schedule_id);
  const points = (await history.orderBy("created_at", "desc").limit(HISTORY_POINTS).execute()).reverse();
  // The analysis before this one, of the same kind: what "since last time" compares with.
  const earlier = points.filter((p) => p.id !== analysis.id).at(-1);
  const run =
    analysis.schedule_id === null
      ? undefined
      : await ctx.db
          .selectFrom("monitoring_runs")
          .select("id")
          .where("analysis_id", "=", analysis.id)
          .executeTakeFirst();
  const data = await build(
    ctx,
    analysis.project_id,
    [analysis],
    points,
    run === undefined ? { runId: "none" } : { runId: run.id },
    {
      analysis_id: analysis.id,
      run_id: run?.id ?? null,
      schedule_id: analysis.schedule_id,
    },
    earlier === undefined
      ? null
      : { analyses: [earlier], start: earlier.created_at, end: earlier.completed_at ?? earlier.created_at },
    { start: analysis.created_at, end: analysis.completed_at },
  );
  const type: ReportType = run === undefined ? "analysis" : "monitoring_run";
  await store(ctx, {
    type,
    projectId: analysis.project_id,
    start: analysis.created_at,
    end: analysis.completed_at,
    dedupeKey: `${type}:${analysis.id}`,
    data,
  });
}

/** The analysis-finished hook of reports: a completed analysis (or run) gets its report. */
export const reportFinishedAnalysis: AnalysisFinishedHook = async (ctx, { analysis }) => {
  if (analysis.status === "completed") await reportForAnalysis(ctx, analysis);
};

/** Monday 00:00 UTC of the week containing `at`. */
export function weekStart(at: Date): Date {
  const day = at.getUTCDay();
  const monday = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - ((day + 6) % 7)));
  return monday;
}

/**
 * For every brand with monitoring, the digest of the last complete week (Monday to Monday, UTC),
 * once: over every monitoring answer of that week, its runs as history, and its alerts.
 */
export async function generateWeeklyDigests(deps: Deps, now: Date): Promise<number> {
  const end = weekStart(now);
  const start = new Date(end.getTime() - 7 * 86_400_000);
  const projects = await deps.db
    .selectFrom("monitoring_schedules")
    .select(["workspace_id", "project_id"])
    .where("created_at", "<", end.toISOString())
    .where("project_id", "in", liveProjectIds(deps.db))
    .groupBy(["workspace_id", "project_id"])
    .execute();
  let made = 0;
  for (const { workspace_id: workspaceId, project_id: projectId } of projects) {
    const dedupeKey = `weekly_digest:${projectId}:${start.toISOString()}`;
    const exists = await deps.db
      .selectFrom("reports")
      .select("id")
      .where("dedupe_key", "=", dedupeKey)
      .executeTakeFirst();
    if (exists !== undefined) continue;
    const ctx = await workspaceContext(deps, workspaceId, { type: "system" });
    const monitoringBetween = (from: Date, to: Date) =>
      ctx.db
        .selectFrom("analyses")
        .selectAll()
        .where("workspace_id", "=", workspaceId)
        .where("project_id", "=", projectId)
        .where("trigger", "=", "monitoring")
        .where("status", "=", "completed")
        .where("created_at", ">=", from.toISOString())
        .where("created_at", "<", to.toISOString())
        .orderBy("created_at")
        .execute();
    const analyses = await monitoringBetween(start, end);
    const weekBefore = new Date(start.getTime() - 7 * 86_400_000);
    const data = await build(
      ctx,
      projectId,
      analyses,
      analyses,
      { from: start.toISOString(), to: end.toISOString() },
      {
        analysis_id: null,
        run_id: null,
        schedule_id: null,
      },
      {
        analyses: await monitoringBetween(weekBefore, start),
        start: weekBefore.toISOString(),
        end: start.toISOString(),
      },
      { start: start.toISOString(), end: end.toISOString() },
    );
    await store(ctx, {
      type: "weekly_digest",
      projectId,
      start: start.toISOString(),
      end: end.toISOString(),
      dedupeKey,
      data,
    });
    made++;
  }
  return made;
}
