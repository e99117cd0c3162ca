import { AnalysesList } from "../features/analyses/analyses-list.tsx";
import { ReportsList } from "../features/analyses/reports-list.tsx";
import { RunAnalysisDialog } from "../features/analyses/run-analysis-dialog.tsx";
import { useBrand } from "../features/brand/brand-context.tsx";
import { useTitle } from "../lib/use-title.ts";

export function BrandAnalysesPage() {
  const { project, canEdit } = useBrand();
  useTitle(`Analyses & reports · ${project.name}`);
  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 className="text-lg font-semibold">Analyses &amp; reports</h2>
        {canEdit && <RunAnalysisDialog variant="outline" />}
      </div>
      <AnalysesList />
      <ReportsList />
    </div>
  );
}
