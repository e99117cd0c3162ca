import type { Analysis, AnalysisList, AnalyzeRequest, ReportList, ReportShare, ReportShareList } from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { api, v1 } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export function analysesQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "analyses", projectId),
    queryFn: ({ signal }) =>
      api<AnalysisList>(v1(workspaceId, `/analyses?project_id=${encodeURIComponent(projectId)}&limit=50`), { signal }),
    // Read again every two seconds while one is under way (started here, by the API or by monitoring).
    refetchInterval: (query) =>
      query.state.data?.data.some((a) => a.status === "queued" || a.status === "running") ? 2000 : false,
  });
}

/** One analysis; while it runs, read again every second until it has finished. */
export function analysisQuery(workspaceId: string, analysisId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "analysis", analysisId),
    queryFn: ({ signal }) => api<Analysis>(v1(workspaceId, `/analyses/${encodeURIComponent(analysisId)}`), { signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === "completed" || status === "failed" ? false : 1000;
    },
    staleTime: 0,
  });
}

export function startAnalysis(workspaceId: string, body: AnalyzeRequest): Promise<Analysis> {
  return api<Analysis>(v1(workspaceId, "/analyze"), { method: "POST", body });
}

export function reportsQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "reports", projectId),
    queryFn: ({ signal }) =>
      api<ReportList>(v1(workspaceId, `/reports?project_id=${encodeURIComponent(projectId)}&limit=50`), { signal }),
  });
}

/** Where the browser opens a report: the same session-authenticated mount, as a page or a file. */
export function reportUrl(workspaceId: string, reportId: string, format: "html" | "csv" | "pdf"): string {
  return `/app/api${v1(workspaceId, `/reports/${encodeURIComponent(reportId)}?format=${format}`)}`;
}

const sharesPath = (reportId: string) => `/reports/${encodeURIComponent(reportId)}/shares`;

export function sharesQuery(workspaceId: string, reportId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "report-shares", reportId),
    queryFn: ({ signal }) => api<ReportShareList>(v1(workspaceId, sharesPath(reportId)), { signal }),
  });
}

export function createShare(workspaceId: string, reportId: string, days: number): Promise<ReportShare> {
  return api<ReportShare>(v1(workspaceId, sharesPath(reportId)), { method: "POST", body: { expires_in_days: days } });
}

export function revokeShare(workspaceId: string, reportId: string, shareId: string): Promise<ReportShare> {
  return api<ReportShare>(v1(workspaceId, `${sharesPath(reportId)}/${encodeURIComponent(shareId)}`), {
    method: "DELETE",
  });
}
