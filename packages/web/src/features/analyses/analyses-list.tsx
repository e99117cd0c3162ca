import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { HistoryIcon } from "lucide-react";
import { EmptyState, QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { proportion } from "../../lib/figures.ts";
import { engineName, formatDateTime, plural } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { analysesQuery } from "./analyses-api.ts";
import { AnalysisStatus, FailureSummary, TRIGGER_NAMES } from "./analysis-status.tsx";

/** The brand's analyses, newest first: when, how started, what was asked, how it went. */
export function AnalysesList() {
  const { workspaceId, project } = useBrand();
  const analyses = useQuery({
    ...analysesQuery(workspaceId, project.id),
    // Keep running analyses' progress fresh while the list is on screen.
    refetchInterval: (query) =>
      query.state.data?.data.some((a) => a.status === "queued" || a.status === "running") ? 2000 : false,
  });
  return (
    <SectionCard
      titleId="analyses-title"
      title="Analyses"
      description={<>Every run of {project.name}'s prompts, from this dashboard, the API or monitoring.</>}
    >
      <QueryState query={analyses} loading="Loading analyses…" error="The analyses could not be loaded" />
      {analyses.data?.data.length === 0 && (
        <EmptyState icon={<HistoryIcon />} title="No analyses yet">
          Run one to ask the engines the brand's prompts.
        </EmptyState>
      )}
      {analyses.data && analyses.data.data.length > 0 && (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Started</TableHead>
              <TableHead>Status</TableHead>
              <TableHead wide>Asked</TableHead>
              <TableHead wide>Visibility</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {analyses.data.data.map((analysis) => {
              const asked = `${plural(analysis.prompts.length, "prompt")} × ${analysis.engines.map(engineName).join(", ")} × ${plural(analysis.samples, "sample")}`;
              const visibility = analysis.summary ? proportion(analysis.summary.overall.visibility) : "–";
              return (
                <TableRow key={analysis.id}>
                  <TableCell className="align-top">
                    <Link
                      to="/w/$workspaceId/brands/$brandId/analyses/$analysisId"
                      params={{ workspaceId, brandId: project.id, analysisId: analysis.id }}
                      className="font-medium text-primary underline-offset-4 hover:underline"
                    >
                      {formatDateTime(analysis.created_at)}
                    </Link>
                    <span className="block text-xs text-muted-foreground">from {TRIGGER_NAMES[analysis.trigger]}</span>
                    <span className="mt-1 block text-xs text-muted-foreground md:hidden">
                      {asked}. Visibility {visibility}
                    </span>
                  </TableCell>
                  <TableCell className="align-top">
                    <AnalysisStatus status={analysis.status} failed={analysis.progress.failed} />
                    {analysis.status === "completed" && analysis.progress.failed > 0 ? (
                      <FailureSummary
                        compact
                        failed={analysis.progress.failed}
                        total={analysis.progress.total}
                        errors={analysis.errors}
                      />
                    ) : (
                      <span className="mt-1 block text-xs text-muted-foreground tabular-nums">
                        {analysis.progress.succeeded + analysis.progress.failed} of{" "}
                        {plural(analysis.progress.total, "answer")}
                        {analysis.progress.failed > 0 ? `, ${analysis.progress.failed} failed` : ""}
                      </span>
                    )}
                  </TableCell>
                  <TableCell wide className="align-top text-sm">
                    {asked}
                  </TableCell>
                  <TableCell wide className="align-top text-sm tabular-nums">
                    {visibility}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </SectionCard>
  );
}
