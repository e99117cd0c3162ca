import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { BackLink } from "../components/back-link.tsx";
import { QueryState } from "../components/page-states.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { ChangeChart } from "../features/experiments/change-chart.tsx";
import { ChangeSetup } from "../features/experiments/change-setup.tsx";
import { changeQuery } from "../features/experiments/experiments-api.ts";
import { EnginesTable, ResultCard } from "../features/experiments/result-card.tsx";
import { SamplePlan } from "../features/experiments/sample-plan.tsx";
import { TrafficComparison } from "../features/experiments/traffic-comparison.tsx";
import { useTitle } from "../lib/use-title.ts";

const route = getRouteApi("/_app/w/$workspaceId/brands/$brandId/experiments/$changeId");

/**
 * One change and its effect: the result card in words, treated against control over time with the
 * change marked, the effect per engine, the changed pages' crawls and visits, the sample plan (and
 * the button that schedules what it misses), and what is compared.
 */
export function BrandExperimentPage() {
  const { workspaceId, project } = useBrand();
  const { changeId } = route.useParams();
  const change = useQuery(changeQuery(workspaceId, project.id, changeId));
  useTitle(`${change.data?.title ?? "Experiment"} · ${project.name}`);
  return (
    <div className="grid gap-4">
      <BackLink to="/w/$workspaceId/brands/$brandId/experiments" params={{ workspaceId, brandId: project.id }}>
        All experiments
      </BackLink>
      <QueryState query={change} loading="Computing the experiment's figures…" error="The change could not be loaded" />
      {change.data && (
        <>
          <h2 className="text-lg leading-tight font-semibold wrap-anywhere">{change.data.title}</h2>
          <ResultCard change={change.data} />
          <ChangeChart change={change.data} />
          <SamplePlan change={change.data} />
          <EnginesTable change={change.data} />
          <TrafficComparison change={change.data} />
          <ChangeSetup change={change.data} />
        </>
      )}
    </div>
  );
}
