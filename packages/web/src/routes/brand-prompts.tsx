import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/page-states.tsx";
import { NoAnswers } from "../features/analyses/no-answers.tsx";
import { promptMetricsQuery } from "../features/analytics/analytics-api.ts";
import { PromptHeatmap } from "../features/analytics/prompt-heatmap.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { FiltersBar } from "../features/brand-page/filters-bar.tsx";
import { TrackedPrompts } from "../features/prompts/tracked-prompts.tsx";
import { useTitle } from "../lib/use-title.ts";

export function BrandPromptsPage() {
  const { workspaceId, project, period, search } = useBrand();
  useTitle(`Prompts · ${project.name}`);
  const metrics = useQuery(promptMetricsQuery(workspaceId, project.id, period, search.engine));
  return (
    <div className="grid gap-6">
      <h2 className="sr-only">Prompts</h2>
      <FiltersBar />
      <QueryState
        query={metrics}
        loading="Loading the prompts' figures…"
        error="The prompts' figures could not be loaded"
      />
      {metrics.data && metrics.data.data.length === 0 && <NoAnswers what="prompt figures" />}
      {metrics.data && metrics.data.data.length > 0 && <PromptHeatmap metrics={metrics.data} />}
      <TrackedPrompts />
    </div>
  );
}
