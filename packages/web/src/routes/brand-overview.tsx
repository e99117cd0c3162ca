import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/page-states.tsx";
import { NoAnswers } from "../features/analyses/no-answers.tsx";
import { metricsQuery } from "../features/analytics/analytics-api.ts";
import { EngineCharts } from "../features/analytics/engine-charts.tsx";
import { MetricTiles } from "../features/analytics/metric-tiles.tsx";
import { ShareOfVoiceChart } from "../features/analytics/share-of-voice-chart.tsx";
import { SignificanceNote } from "../features/analytics/significance.tsx";
import { VisibilityChart } from "../features/analytics/visibility-chart.tsx";
import { scopeLine, useBrand } from "../features/brand-page/brand-context.tsx";
import { FiltersBar } from "../features/brand-page/filters-bar.tsx";
import { engineName } from "../lib/format.ts";
import { useTitle } from "../lib/use-title.ts";

export function BrandOverviewPage() {
  const brand = useBrand();
  const { workspaceId, project, period, search } = brand;
  useTitle(`Overview · ${project.name}`);
  const metrics = useQuery(metricsQuery(workspaceId, project.id, period, search.engine));
  const subtitle = scopeLine(brand, engineName);
  return (
    <div className="grid gap-6">
      <h2 className="sr-only">Overview</h2>
      <FiltersBar />
      <QueryState query={metrics} loading="Loading the figures…" error="The figures could not be loaded" />
      {metrics.data && metrics.data.total.overall.counts.answers === 0 && <NoAnswers />}
      {metrics.data && metrics.data.total.overall.counts.answers > 0 && (
        <>
          <section aria-label="Headline figures" className="grid gap-3">
            <MetricTiles metrics={metrics.data} domain={project.primary_domain} />
            <SignificanceNote />
          </section>
          <VisibilityChart metrics={metrics.data} subtitle={subtitle} />
          <ShareOfVoiceChart metrics={metrics.data} subtitle={subtitle} />
          <EngineCharts metrics={metrics.data} subtitle={subtitle} />
        </>
      )}
    </div>
  );
}
