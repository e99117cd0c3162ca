import { IdParams } from "../http/schema.ts";
import { analyzeRoute, getAnalysisRoute } from "../http/v1/analyses/routes.ts";
import { projectMetricsRoute } from "../http/v1/analytics/routes.ts";
import { opportunitiesRoute } from "../http/v1/opportunities/routes.ts";
import { getProjectRoute, listProjectsRoute } from "../http/v1/projects/routes.ts";
import { getReportRoute, listReportsRoute } from "../http/v1/reports/routes.ts";
import { getResultRoute, listResultsRoute } from "../http/v1/results/routes.ts";
import { AnalyzeSchema } from "../services/analyses/schemas.ts";
import { MetricsQuery } from "../services/analytics/schemas.ts";
import { MAX_WAIT_SECONDS } from "../services/limits.ts";
import { OpportunitiesQuery } from "../services/opportunities/schemas.ts";
import { ProjectListQuery } from "../services/projects/schemas.ts";
import { ReportListQuery } from "../services/reports/schemas.ts";
import { ResultListQuery } from "../services/results/schemas.ts";
import { defineTool, type Tool } from "./tool.ts";

const brandId = { id: { as: "project_id", description: "The brand's id (`prj_…`), from list_brands." } };
/**
 * The longest a tool waits for an analysis: under the 60 s after which MCP clients give up on a
 * request by default (the SDK's), so that the answer arrives before they stop listening.
 */
const LONGEST_WAIT_SECONDS = MAX_WAIT_SECONDS - 5;
const paging = "Newest first, a page at a time: pass `next_cursor` back as `cursor` for the next page.";

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
    description:
      "Visibility (with its 95% interval and n), share of voice, average position, sentiment score, citation rate and visibility score, overall and per engine, for a period (the last 30 days by default) and per `interval`, with the period of the same length before and whether each change is statistically real.",
    route: projectMetricsRoute,
    params: IdParams,
    query: MetricsQuery,
    rename: brandId,
  }),
  defineTool({
    name: "list_opportunities",
    title: "What to do next for a brand",
    description:
      "A ranked, explained list of what would improve the brand's visibility, from the last 30 days' answers: answers contradicting its fact sheet or warning against it, prompts and engines where its visibility fell or competitors are named and it is not, sites cited for competitors and not for it, searches whose answers never cite its site. Each with its figures and the results it rests on.",
    route: opportunitiesRoute,
    params: IdParams,
    query: OpportunitiesQuery,
    rename: brandId,
  }),
  defineTool({
    name: "list_results",
    title: "List scored results",
    description: `Measured answers (one prompt asked of one engine): the answer's text, whether and where the brand is mentioned, sentiment, citations and score; filtered by brand, analysis, engine, prompt, tag and time range [from, to). ${paging}`,
    route: listResultsRoute,
    query: ResultListQuery,
  }),
  defineTool({
    name: "get_result",
    title: "Read a result",
    description: "One measured answer with its text, citations, mentions, position, sentiment and score.",
    route: getResultRoute,
    params: IdParams,
    rename: { id: { as: "result_id", description: "The result's id (`res_…`)." } },
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
    description:
      "One report as JSON: its summary figures and the table of answers. (The REST API also renders it as CSV or a printable HTML page.)",
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
    description: "An analysis's status and progress, the engines that failed and, once finished, its summary figures.",
    route: getAnalysisRoute,
    params: IdParams,
    rename: { id: { as: "analysis_id", description: "The analysis's id (`ana_…`), from run_analysis." } },
  }),
];
