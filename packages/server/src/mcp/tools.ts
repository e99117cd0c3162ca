import { IdParams } from "../http/schema.ts";
import { analyzeRoute, getAnalysisRoute } from "../http/v1/analyses/routes.ts";
import { projectMetricsRoute } from "../http/v1/analytics/routes.ts";
import { breakdownRoute, getConversationRoute, listConversationsRoute } from "../http/v1/conversations/routes.ts";
import { createChangeRoute, getChangeRoute, listChangesRoute } from "../http/v1/experiments/routes.ts";
import { opportunitiesRoute } from "../http/v1/opportunities/routes.ts";
import { getProjectRoute, listProjectsRoute } from "../http/v1/projects/routes.ts";
import { getReportRoute, listReportsRoute } from "../http/v1/reports/routes.ts";
import { getResultRoute, listResultsRoute } from "../http/v1/results/routes.ts";
import { getAccessRoute, getTrafficRoute } from "../http/v1/traffic/routes.ts";
import { AnalyzeSchema } from "../services/analyses/schemas.ts";
import { BreakdownQuery } from "../services/analytics/breakdown-schemas.ts";
import type { ProjectMetrics } from "../services/analytics/metrics.ts";
import { MetricsQuery } from "../services/analytics/schemas.ts";
import { ConversationListQuery, ConversationParams } from "../services/conversations/schemas.ts";
import { ChangeCreateSchema, ChangeListQuery, ChangeParams } from "../services/experiments/schemas.ts";
import { GLOSSARY } from "../services/glossary/metrics.ts";
import { MAX_WAIT_SECONDS } from "../services/limits.ts";
import { OpportunitiesQuery } from "../services/opportunities/schemas.ts";
import { ProjectListQuery } from "../services/projects/schemas.ts";
import { ReportListQuery } from "../services/reports/schemas.ts";
import { ResultListQuery } from "../services/results/schemas.ts";
import { TrafficQuery } from "../services/traffic/schemas.ts";
import { METRICS_FIGURES, metricsText } from "./metrics-text.ts";
import { defineTool, type Tool } from "./tool.ts";

const brandId = { id: { as: "project_id", description: "The brand's id (`prj_…`), from list_brands." } };
/**
 * The longest a tool waits for an analysis: under the 60 s after which MCP clients give up on a
 * request by default (the SDK's), so that the answer arrives before they stop listening.
 */
const LONGEST_WAIT_SECONDS = MAX_WAIT_SECONDS - 5;
const paging = "Newest first, a page at a time: pass `next_cursor` back as `cursor` for the next page.";

// The figures' names, hints and scales are the glossary's (services/glossary), as on the dashboard
// and in the reports; only the API's own units (fractions, the per-answer polarity) are said here.
const lower = (name: string) => `${name.charAt(0).toLowerCase()}${name.slice(1)}`;

const changeId = {
  ...brandId,
  change_id: { as: "change_id", description: "The change's id (`chg_…`), from record_change or list_changes." },
};
const effectWords = `${GLOSSARY.experiment_effect.name} (\`effect\`, a fraction: 0.12 is +12 pts): ${lower(GLOSSARY.experiment_effect.hint)} ${GLOSSARY.experiment_effect.interval} ${GLOSSARY.experiment_effect.significance}`;
/** A change in words, after its JSON: its status sentence and its sample plan. */
const changeText = (answer: Record<string, unknown>) => {
  const change = answer as { title: string; summary: string; plan: { message: string } };
  return `${change.title}: ${change.summary}\nPlan: ${change.plan.message}`;
};
const metricsFigures = METRICS_FIGURES.map(
  ({ id, field }) => `- ${GLOSSARY[id].name} (\`${field}\`): ${GLOSSARY[id].hint} ${GLOSSARY[id].scale}`,
).join("\n");

/** What a measured answer carries, and the one figure whose API scale is not people's. */
const answerFigures = `${lower(GLOSSARY.stance.name)}, ${lower(GLOSSARY.sentiment.name)}, citations and ${lower(GLOSSARY.visibility_score.name)}`;
const answerScales = `${GLOSSARY.sentiment.name}: \`brand.sentiment\` is the classifier's polarity, −1 to +1; people read 50 + 50 × polarity, ${lower(GLOSSARY.sentiment.scale)} ${GLOSSARY.visibility_score.name} (\`score\`): ${GLOSSARY.visibility_score.hint}`;

const summaryFigures = (
  [
    "visibility",
    "share_of_voice",
    "average_position",
    "sentiment",
    "citation_rate",
    "visibility_score",
    "cost",
  ] as const
)
  .map((id) => lower(GLOSSARY[id].name))
  .join(", ");

/**
 * The MCP tools: each one a REST route of API v1 (its scope, request schemas and response schema)
 * over the service that route calls. A new tool is one entry here.
 */
export const MCP_TOOLS: readonly Tool[] = [
  defineTool({
    name: "list_brands",
    title: "List brands",
    description: `The workspace's brands (projects): name, domains, competitors, tracked prompts and engines. ${paging}`,
    route: listProjectsRoute,
    query: ProjectListQuery,
  }),
  defineTool({
    name: "get_brand",
    title: "Read a brand",
    description: "One brand (project) of the workspace with all its settings.",
    route: getProjectRoute,
    params: IdParams,
    rename: brandId,
  }),
  defineTool({
    name: "get_metrics",
    title: "A brand's figures over time",
    description: `A brand's figures for a period (the last 30 days by default), overall, per engine and per \`interval\`, with the period of the same length before and whether each change is statistically real:\n${metricsFigures}\n${GLOSSARY.visibility.significance} In the JSON, percentages are fractions from 0 to 1 (0.47 is 47%) and engines are ids; the text after it names the figures and engines as people read them.`,
    route: projectMetricsRoute,
    params: IdParams,
    query: MetricsQuery,
    rename: brandId,
    readable: (answer) => metricsText(answer as ProjectMetrics),
  }),
  defineTool({
    name: "list_opportunities",
    title: "What to do next for a brand",
    description: `A ranked, explained list of what would improve the brand's visibility, from the last 30 days' answers: answers contradicting its fact sheet or warning against it, prompts and engines where its visibility fell or competitors are named and it is not, sites cited for competitors and not for it, searches whose answers never cite its site. Each with its figures and the results it rests on, ranked by ${lower(GLOSSARY.opportunity_impact.name)} (\`impact\`, a fraction): ${lower(GLOSSARY.opportunity_impact.hint)}`,
    route: opportunitiesRoute,
    params: IdParams,
    query: OpportunitiesQuery,
    rename: brandId,
  }),
  defineTool({
    name: "record_change",
    title: "Record a change to measure its effect",
    description: `Records something the brand did (rewrote \`pages\` of its site, got an outside placement at \`placement_url\`) at \`changed_at\` (now by default), to measure as an experiment: its treated \`prompts\` (the brand's prompts it should move) against \`control_prompts\` (those it should not), before and after. Leave the prompts out to have them proposed (from \`opportunity_id\`, the list_opportunities item acted on, or from the answers citing the pages); two a side at least. The answer carries the sample plan: the answers needed for \`effect\` (0.1, 10 points, by default) with 80% power and their cost in credits.`,
    route: createChangeRoute,
    params: IdParams,
    body: ChangeCreateSchema,
    rename: brandId,
    readable: changeText,
  }),
  defineTool({
    name: "list_changes",
    title: "List a brand's changes and their effects",
    description: `The brand's recorded changes with their status (collecting, result, inconclusive, not_called), result sentence and figures. ${paging}`,
    route: listChangesRoute,
    params: IdParams,
    query: ChangeListQuery,
    rename: brandId,
  }),
  defineTool({
    name: "get_change",
    title: "Did a change work?",
    description: `One change's experiment: ${effectWords} Overall and per engine, the changed pages' citation rate the same way, the pre-trend check, crawls and referred visits of the changed pages, treated vs control per day, and the sample plan. Without enough data it says how many answers are still needed.`,
    route: getChangeRoute,
    params: ChangeParams,
    rename: changeId,
    readable: changeText,
  }),
  defineTool({
    name: "get_traffic",
    title: "A brand's AI crawler hits and AI referrals",
    description:
      "What the brand's own access logs say over a period (UTC days `from`, `to` excluded): hits by the AI engines' crawlers per bot, verified against the bots' published addresses (or spoofed, or unverifiable), visits referred by each AI engine, and both per day. Filter by `engine` (its referrals and the bots that feed it), `bot` or `verified`. Empty until logs are imported.",
    route: getTrafficRoute,
    params: IdParams,
    query: TrafficQuery,
    rename: brandId,
  }),
  defineTool({
    name: "get_access",
    title: "Whether AI crawlers may read a brand's sites",
    description:
      "The access audit of each of the brand's domains: its robots.txt read for each AI crawler (allowed, blocked or partially blocked, with the robots.txt line and group that decide), whether it has an llms.txt, and the statuses each crawler was served in the last 7 days. A crawler that feeds an engine the brand tracks and is blocked means that engine cannot cite the brand's pages.",
    route: getAccessRoute,
    params: IdParams,
    rename: brandId,
  }),
  defineTool({
    name: "list_results",
    title: "List scored results",
    description: `Measured answers (one prompt asked of one engine): the answer's text, whether and where the brand is mentioned, its ${answerFigures}; filtered by brand, analysis, engine, prompt, tag and time range [from, to). ${answerScales} ${paging}`,
    route: listResultsRoute,
    query: ResultListQuery,
  }),
  defineTool({
    name: "get_result",
    title: "Read a result",
    description: `One measured answer with its text, mentions, position, ${answerFigures}. ${answerScales}`,
    route: getResultRoute,
    params: IdParams,
    rename: { id: { as: "result_id", description: "The result's id (`res_…`)." } },
  }),
  defineTool({
    name: "compare_audiences",
    title: "Compare a brand's personas or countries",
    description: `The brand's figures per persona (\`by: "persona"\`: who asked) or per country (\`by: "country"\`: where from) over a period (the last 30 days by default), counted from its answers: ${lower(GLOSSARY.visibility.name)} and citation rate with their 95% intervals and n, average position, sentiment and visibility score, and \`against_all\`: \`below\` or \`above\` when a group's visibility interval does not overlap all answers'. Groups are named as people read them (\`label\`).`,
    route: breakdownRoute,
    params: IdParams,
    query: BreakdownQuery,
    rename: brandId,
  }),
  defineTool({
    name: "list_conversations",
    title: "List a brand's conversations",
    description: `Conversations the brand's scripts ran (an opening question and follow-ups asked of one engine as one conversation): for each, \`entry_turn\` (the first turn naming the brand), \`survived\` (whether the last answer names it) and \`drop_turn\` (the follow-up after which it was gone for good). Filter by \`script_id\`, \`engine\` or \`analysis_id\`. ${paging}`,
    route: listConversationsRoute,
    params: IdParams,
    query: ConversationListQuery,
    rename: brandId,
  }),
  defineTool({
    name: "get_conversation",
    title: "Read a conversation turn by turn",
    description:
      "Every turn of one conversation: the question as asked, the answer, whether it names the brand and at what position, the competitors it names, and the turns not asked with why.",
    route: getConversationRoute,
    params: ConversationParams,
    rename: {
      ...brandId,
      conversation_id: {
        as: "conversation_id",
        description: "The conversation's id (`cnv_…`), from list_conversations.",
      },
    },
  }),
  defineTool({
    name: "list_reports",
    title: "List reports",
    description: `Reports generated when analyses finish, filtered by brand, type and when they were generated [from, to). ${paging}`,
    route: listReportsRoute,
    query: ReportListQuery,
  }),
  defineTool({
    name: "get_report",
    title: "Read a report",
    description: `One report as JSON: its summary figures (${summaryFigures}) and the table of answers. (The REST API also renders it as CSV or a printable HTML page.)`,
    route: getReportRoute,
    params: IdParams,
    rename: { id: { as: "report_id", description: "The report's id (`rpt_…`)." } },
  }),
  defineTool({
    name: "run_analysis",
    title: "Run an analysis",
    description: `Asks the brand's prompts (or \`prompts\`) of its engines (or \`engines\`) \`samples\` times each and measures every answer; one credit per answer. Returns the queued analysis at once, or with \`wait\` (true: up to ${LONGEST_WAIT_SECONDS} s here) the finished one with its summary; if the wait runs out the analysis is returned still running: read it later with get_analysis.`,
    route: analyzeRoute,
    body: AnalyzeSchema,
    // MCP clients give up on a request after 60 s by default: the wait ends before that.
    prepare: (input) => {
      const wait = input.body.wait;
      const asked = wait === true ? MAX_WAIT_SECONDS : wait === false || wait === undefined ? 0 : wait;
      return { ...input, body: { ...input.body, wait: asked === 0 ? false : Math.min(asked, LONGEST_WAIT_SECONDS) } };
    },
  }),
  defineTool({
    name: "get_analysis",
    title: "Read an analysis",
    description: `An analysis's status and progress, the engines that failed and, once finished, its summary figures (${summaryFigures}), overall, per engine and per prompt.`,
    route: getAnalysisRoute,
    params: IdParams,
    rename: { id: { as: "analysis_id", description: "The analysis's id (`ana_…`), from run_analysis." } },
  }),
];
