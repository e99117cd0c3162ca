import type { Analysis, AnalyzeRequest, ReportShare } from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { v1Call, v1Url } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export function analysesQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "analyses", projectId),
    queryFn: ({ signal }) =>
      v1Call(workspaceId, "listAnalyses", { query: { project_id: projectId, limit: 50 } }, { signal }),
    // Read again every two seconds while one is under way (started here, by the API or by monitoring).
    refetchInterval: (query) =>
      query.state.data?.data.some((a) => a.status === "queued" || a.status === "running") ? 2000 : false,
  });
}

/** One analysis; while it runs, read again every second until it has finished. */
export function analysisQuery(workspaceId: string, analysisId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "analysis", analysisId),
    queryFn: ({ signal }) => v1Call(workspaceId, "getAnalysis", { params: { id: analysisId } }, { signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === "completed" || status === "failed" ? false : 1000;
    },
    staleTime: 0,
  });
}

export function startAnalysis(workspaceId: string, body: AnalyzeRequest): Promise<Analysis> {
  return v1Call(workspaceId, "analyze", { body });
}

export function reportsQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "reports", projectId),
    queryFn: ({ signal }) =>
      v1Call(workspaceId, "listReports", { query: { project_id: projectId, limit: 50 } }, { signal }),
  });
}

/** Where the browser opens a report: the same session-authenticated mount, as a page or a file. */
export function reportUrl(workspaceId: string, reportId: string, format: "html" | "csv" | "pdf"): string {
  return v1Url(workspaceId, "getReport", { params: { id: reportId }, query: { format } });
}

export function sharesQuery(workspaceId: string, reportId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "report-shares", reportId),
    queryFn: ({ signal }) => v1Call(workspaceId, "listReportShares", { params: { id: reportId } }, { signal }),
  });
}

export function createShare(workspaceId: string, reportId: string, days: number): Promise<ReportShare> {
  return v1Call(workspaceId, "createReportShare", { params: { id: reportId }, body: { expires_in_days: days } });
}

export function revokeShare(workspaceId: string, reportId: string, shareId: string): Promise<ReportShare> {
  return v1Call(workspaceId, "revokeReportShare", { params: { id: reportId, share_id: shareId } });
}
