import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { ChevronLeftIcon } from "lucide-react";
import { useEffect } from "react";
import { ErrorState, LoadingState } from "../components/page-states.tsx";
import { analysisQuery } from "../features/analyses/analyses-api.ts";
import { AnalysisProgress } from "../features/analyses/analysis-progress.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { keys } from "../lib/queries.ts";
import { useTitle } from "../lib/use-title.ts";

const route = getRouteApi("/_app/w/$workspaceId/brands/$brandId/analyses/$analysisId");

export function BrandAnalysisPage() {
  const { workspaceId, project } = useBrand();
  const { analysisId } = route.useParams();
  const queryClient = useQueryClient();
  const analysis = useQuery(analysisQuery(workspaceId, analysisId));
  const status = analysis.data?.status;
  useTitle(`Analysis · ${project.name}`);

  // Once it has finished, every figure of the brand may have changed.
  useEffect(() => {
    if (status === "completed" || status === "failed") {
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "analytics", project.id) });
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "analyses", project.id) });
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "reports", project.id) });
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "results", project.id) });
    }
  }, [status, queryClient, workspaceId, project.id]);

  return (
    <div className="grid gap-4">
      <h2 className="sr-only">Analysis</h2>
      <Link
        to="/w/$workspaceId/brands/$brandId/analyses"
        params={{ workspaceId, brandId: project.id }}
        className="inline-flex w-fit items-center gap-1 rounded-md text-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <ChevronLeftIcon className="size-4" aria-hidden="true" />
        All analyses and reports
      </Link>
      {analysis.isPending && <LoadingState label="Loading the analysis…" />}
      {analysis.isError && (
        <ErrorState
          error={analysis.error}
          title="The analysis could not be loaded"
          onRetry={() => analysis.refetch()}
        />
      )}
      {analysis.data && <AnalysisProgress analysis={analysis.data} />}
    </div>
  );
}
