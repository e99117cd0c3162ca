import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useEffect } from "react";
import { BackLink } from "../components/back-link.tsx";
import { QueryState } from "../components/page-states.tsx";
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
      <BackLink to="/w/$workspaceId/brands/$brandId/analyses" params={{ workspaceId, brandId: project.id }}>
        All analyses and reports
      </BackLink>
      <QueryState query={analysis} loading="Loading the analysis…" error="The analysis could not be loaded" />
      {analysis.data && <AnalysisProgress analysis={analysis.data} />}
    </div>
  );
}
