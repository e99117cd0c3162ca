import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../components/page-states.tsx";
import { NoAnswers } from "../features/analyses/no-answers.tsx";
import { breakdownQuery } from "../features/audiences/audiences-api.ts";
import { BreakdownTable } from "../features/audiences/breakdown-table.tsx";
import { CountriesCard } from "../features/audiences/countries-card.tsx";
import { PersonasCard } from "../features/audiences/personas-card.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { FiltersBar } from "../features/brand-page/filters-bar.tsx";
import { useTitle } from "../lib/use-title.ts";

/**
 * A brand's audiences (issue 29): who the engines are asked as (personas) and from where
 * (countries), and how the brand fares with each, side by side against all answers.
 */
export function BrandAudiencesPage() {
  const { workspaceId, project, period, search } = useBrand();
  useTitle(`Audiences · ${project.name}`);
  const byPersona = useQuery(breakdownQuery(workspaceId, project.id, "persona", period, search.engine));
  const byCountry = useQuery(breakdownQuery(workspaceId, project.id, "country", period, search.engine));
  const answered = (byPersona.data?.answers ?? 0) > 0 || (byCountry.data?.answers ?? 0) > 0;
  const loaded = byPersona.data !== undefined && byCountry.data !== undefined;
  return (
    <div className="grid gap-6">
      <div className="grid max-w-3xl gap-1">
        <h2 className="text-lg font-semibold">Audiences</h2>
        <p className="text-sm text-muted-foreground">
          Engines answer differently depending on who asks and from where. Describe your buyers and the countries you
          sell in: each analysis asks every prompt as each of them, and the tables below compare how visible the brand
          is to each.
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
        <PersonasCard />
        <CountriesCard />
      </div>
      <section aria-labelledby="compare-title" className="grid gap-4">
        <div className="grid max-w-3xl gap-1">
          <h2 id="compare-title" className="text-lg font-semibold">
            Compared
          </h2>
          <p className="text-sm text-muted-foreground">
            The brand's figures for each persona and each country, from the single answers of the period (conversations
            are measured on the Conversations tab).
          </p>
        </div>
        <FiltersBar tags={false} />
        <QueryState
          query={byPersona}
          loading="Loading the comparison by persona…"
          error="The comparison by persona could not be loaded"
        />
        <QueryState
          query={byCountry}
          loading="Loading the comparison by country…"
          error="The comparison by country could not be loaded"
        />
        {loaded && !answered && <NoAnswers what="comparisons" />}
        {byPersona.data && answered && <BreakdownTable breakdown={byPersona.data} />}
        {byCountry.data && answered && <BreakdownTable breakdown={byCountry.data} />}
      </section>
    </div>
  );
}
