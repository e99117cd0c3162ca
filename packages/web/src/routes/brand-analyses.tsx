import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { analysesQuery } from "../features/analyses/analyses-api.ts";
import { AnalysesList } from "../features/analyses/analyses-list.tsx";
import { ReportsList } from "../features/analyses/reports-list.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { keys } from "../lib/queries.ts";
import { useTitle } from "../lib/use-title.ts";

export function BrandAnalysesPage() {
  const { project } = useBrand();
  useTitle(`Analyses & reports · ${project.name}`);
  useRefreshOnFinish();
  return (
    <div className="grid gap-6">
      {/* "Run analysis now" is in the brand's header, on every page of it. */}
      <h2 className="sr-only">Analyses &amp; reports</h2>
      <AnalysesList />
      <ReportsList />
    </div>
  );
}

/** When an analysis in the list finishes, its report and the brand's figures are read again. */
function useRefreshOnFinish() {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const analyses = useQuery(analysesQuery(workspaceId, project.id));
  const finished = analyses.data?.data
    .filter((a) => a.status === "completed" || a.status === "failed")
    .map((a) => a.id)
    .join(",");
  const seen = useRef<string>(undefined);
  useEffect(() => {
    if (finished === undefined) return;
    if (seen.current !== undefined && seen.current !== finished) {
      for (const part of ["reports", "analytics", "results"]) {
        void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, part, project.id) });
      }
    }
    seen.current = finished;
  }, [finished, queryClient, workspaceId, project.id]);
}
