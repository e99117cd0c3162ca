import type { ReportListItem } from "@sightline/sdk";
import { useQuery } from "@tanstack/react-query";
import { DownloadIcon, ExternalLinkIcon, FileTextIcon } from "lucide-react";
import { EmptyState, QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { DateText } from "../../components/when.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { atLeast } from "../../lib/roles.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { useWorkspace } from "../workspace/workspace-context.tsx";
import { reportsQuery, reportUrl } from "./analyses-api.ts";
import { ShareReportDialog } from "./share-report-dialog.tsx";

const TYPE_NAMES: Record<ReportListItem["type"], string> = {
  analysis: "Analysis",
  monitoring_run: "Monitoring run",
  weekly_digest: "Weekly digest",
};

/** Report links: the printable page in a new tab, the PDF, its answers as a CSV file, and sharing by link. */
export function ReportLinks({ workspaceId, report }: { workspaceId: string; report: ReportListItem }) {
  const workspace = useWorkspace();
  return (
    <div className="flex flex-wrap gap-2">
      <Button asChild variant="outline" size="sm">
        <a
          href={reportUrl(workspaceId, report.id, "html")}
          target="_blank"
          rel="noopener"
          aria-label={`Open report “${report.title}” in a new tab`}
        >
          <ExternalLinkIcon aria-hidden="true" />
          Open report
        </a>
      </Button>
      <Button asChild variant="outline" size="sm">
        <a
          href={reportUrl(workspaceId, report.id, "csv")}
          download={`${report.id}.csv`}
          aria-label={`Download the answers of “${report.title}” as CSV`}
        >
          <DownloadIcon aria-hidden="true" />
          CSV
        </a>
      </Button>
      <Button asChild variant="outline" size="sm">
        <a
          href={reportUrl(workspaceId, report.id, "pdf")}
          download={`${report.id}.pdf`}
          aria-label={`Download report “${report.title}” as PDF`}
        >
          <DownloadIcon aria-hidden="true" />
          PDF
        </a>
      </Button>
      {atLeast(workspace.role, "member") && <ShareReportDialog workspaceId={workspaceId} report={report} />}
    </div>
  );
}

/** The brand's generated reports, newest first. */
export function ReportsList() {
  const { workspaceId, project } = useBrand();
  const reports = useQuery(reportsQuery(workspaceId, project.id));
  return (
    <SectionCard
      titleId="reports-title"
      title="Reports"
      description="Made when an analysis or a monitoring run finishes, and each week: a printable page with charts, a PDF, every answer as a CSV file, and links to share one with people outside the workspace."
    >
      <QueryState query={reports} loading="Loading reports…" error="The reports could not be loaded" />
      {reports.data?.data.length === 0 && (
        <EmptyState icon={<FileTextIcon />} title="No reports yet">
          A report appears here when an analysis finishes.
        </EmptyState>
      )}
      {reports.data && reports.data.data.length > 0 && (
        <ul className="divide-y">
          {reports.data.data.map((report) => (
            <li
              key={report.id}
              className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="font-medium wrap-anywhere">{report.title}</p>
                <p className="mt-0.5 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  <Badge variant="outline">{TYPE_NAMES[report.type]}</Badge>
                  <span>
                    Covers {formatDateTime(report.period.start)} – {formatDateTime(report.period.end)}
                  </span>
                  <span>
                    · made <DateText value={report.created_at} />
                  </span>
                </p>
              </div>
              <ReportLinks workspaceId={workspaceId} report={report} />
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
