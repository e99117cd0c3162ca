import type {
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  Resource,
} from "@modelcontextprotocol/sdk/types.js";
import { getProjectRoute, listProjectsRoute } from "../http/v1/projects/routes.ts";
import { getReportRoute, listReportsRoute } from "../http/v1/reports/routes.ts";
import { scopeAllows } from "../services/api-keys/scopes.ts";
import type { Authenticated } from "../services/auth/authenticate.ts";
import type { Deps } from "../services/context.ts";
import { GLOSSARY, METRIC_IDS } from "../services/glossary/metrics.ts";
import { runRoute } from "./run-route.ts";

/** Resources are named `sightline://…`: the glossary, a brand, a report. */
export const GLOSSARY_URI = "sightline://glossary";
const brandUri = (id: string) => `sightline://brands/${id}`;
const reportUri = (id: string) => `sightline://reports/${id}`;
const BRAND_URI = /^sightline:\/\/brands\/([A-Za-z0-9_]{1,100})$/;
const REPORT_URI = /^sightline:\/\/reports\/([A-Za-z0-9_]{1,100})$/;

/** The reports listed (the newest); older ones are read by their id through the template. */
const LISTED_REPORTS = 20;
/** The brands listed: a workspace's first 100 (the API's page size at most). */
const LISTED_BRANDS = 100;

type Admission = { auth: Authenticated; requestId: string };

/** A resource that is not there (or not this key's), as the protocol names it. */
export class ResourceNotFound extends Error {
  readonly code = -32002;
}

const GLOSSARY_RESOURCE: Resource = {
  uri: GLOSSARY_URI,
  name: "glossary",
  title: "Glossary: what each figure means",
  description:
    "Every figure Sightline reports (visibility, share of voice, position, sentiment…): what it counts, its scale, its interval and when a change is called real.",
  mimeType: "text/markdown",
};

/** The glossary as one Markdown page: the words the dashboard, the reports and the tools use. */
function glossaryMarkdown(): string {
  const sections = METRIC_IDS.map((id) => {
    const d = GLOSSARY[id];
    return [
      `## ${d.name}`,
      "",
      d.hint,
      "",
      `- **Counts:** ${d.counts}`,
      `- **Scale:** ${d.scale}`,
      `- **n:** ${d.n}`,
      `- **Interval:** ${d.interval}`,
      `- **Real change:** ${d.significance}`,
      `- **In the API:** ${d.fields.map((field) => `\`${field}\``).join(", ")}`,
    ].join("\n");
  });
  return `# Sightline glossary\n\n${sections.join("\n\n")}\n`;
}

/**
 * What the key can read: the glossary always, the workspace's brands with the `projects` (or
 * `read`) scope, its newest reports with the `reports` (or `read`) scope.
 */
export async function listResources(
  deps: Deps,
  admission: Admission,
  signal: AbortSignal,
): Promise<ListResourcesResult> {
  const resources: Resource[] = [GLOSSARY_RESOURCE];
  const scopes = admission.auth.key.scopes;
  if (scopeAllows(scopes, listProjectsRoute.scope, "GET")) {
    const page = await runRoute(deps, listProjectsRoute, { query: { limit: LISTED_BRANDS } }, admission, signal);
    for (const brand of page.json.data as { id: string; name: string; primary_domain: string }[]) {
      resources.push({
        uri: brandUri(brand.id),
        name: brand.name,
        title: `${brand.name} (brand)`,
        description: `The brand's settings: ${brand.primary_domain}, its competitors, tracked prompts and engines.`,
        mimeType: "application/json",
      });
    }
  }
  if (scopeAllows(scopes, listReportsRoute.scope, "GET")) {
    const page = await runRoute(deps, listReportsRoute, { query: { limit: LISTED_REPORTS } }, admission, signal);
    for (const report of page.json.data as { id: string; title: string; created_at: string }[]) {
      resources.push({
        uri: reportUri(report.id),
        name: report.title,
        title: report.title,
        description: `A report generated ${report.created_at.slice(0, 10)}: its summary figures and where the answers are.`,
        mimeType: "application/json",
      });
    }
  }
  return { resources };
}

export function listResourceTemplates(): ListResourceTemplatesResult {
  return {
    resourceTemplates: [
      {
        uriTemplate: "sightline://brands/{project_id}",
        name: "brand",
        title: "A brand",
        description: "A brand's settings (domains, competitors, prompts, engines) by its id (`prj_…`).",
        mimeType: "application/json",
      },
      {
        uriTemplate: "sightline://reports/{report_id}",
        name: "report",
        title: "A report",
        description: "A report's figures by its id (`rpt_…`), as get_report returns it.",
        mimeType: "application/json",
      },
    ],
  };
}

/** One resource's content; through the same route, scope and workspace as its REST read. */
export async function readResource(
  deps: Deps,
  uri: string,
  admission: Admission,
  signal: AbortSignal,
): Promise<ReadResourceResult> {
  if (uri === GLOSSARY_URI) return { contents: [{ uri, mimeType: "text/markdown", text: glossaryMarkdown() }] };
  const brand = BRAND_URI.exec(uri)?.[1];
  const report = REPORT_URI.exec(uri)?.[1];
  const read =
    brand !== undefined
      ? await runRoute(deps, getProjectRoute, { params: { id: brand } }, admission, signal, null, "resource brand")
      : report !== undefined
        ? await runRoute(deps, getReportRoute, { params: { id: report } }, admission, signal, null, "resource report")
        : null;
  if (read === null)
    throw new ResourceNotFound(
      `No resource ${uri}: Sightline's are ${GLOSSARY_URI}, sightline://brands/{project_id} and sightline://reports/{report_id}.`,
    );
  return { contents: [{ uri, mimeType: "application/json", text: read.text }] };
}
