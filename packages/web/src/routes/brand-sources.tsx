import { useQuery } from "@tanstack/react-query";
import { FigureHint } from "../components/figure-hint.tsx";
import { ErrorState, QueryState } from "../components/page-states.tsx";
import { NoAnswers } from "../features/analyses/no-answers.tsx";
import { searchesQuery, sourcesQuery } from "../features/analytics/analytics-api.ts";
import { SearchesTable } from "../features/analytics/searches-table.tsx";
import { CATEGORY_LABEL, type SourceCategory } from "../features/analytics/source-kind.tsx";
import { SourcesChart } from "../features/analytics/sources-chart.tsx";
import { SourcesTables } from "../features/analytics/sources-tables.tsx";
import { scopeLine, useBrand } from "../features/brand-page/brand-context.tsx";
import { FiltersBar } from "../features/brand-page/filters-bar.tsx";
import { Stat } from "../features/overview/stat.tsx";
import { GLOSSARY } from "../generated/glossary.ts";
import { percent } from "../lib/figures.ts";
import { engineName, formatNumber } from "../lib/format.ts";
import { periodPhrase } from "../lib/period.ts";
import { useTitle } from "../lib/use-title.ts";

const CATEGORIES: SourceCategory[] = ["owned", "competitor", "review", "reference", "news", "social", "other"];

export function BrandSourcesPage() {
  const brand = useBrand();
  const { workspaceId, project, period, search } = brand;
  useTitle(`Sources · ${project.name}`);
  const sources = useQuery(sourcesQuery(workspaceId, project.id, period, search.engine));
  const searches = useQuery(searchesQuery(workspaceId, project.id, period, search.engine));
  const totals = sources.data?.totals;
  const share = (n: number) =>
    totals && totals.citations > 0 ? `${percent(n / totals.citations)} of all citations` : "";
  return (
    <div className="grid gap-6">
      <h2 className="sr-only">Sources</h2>
      <FiltersBar />
      <QueryState query={sources} loading="Loading the sources…" error="The sources could not be loaded" />
      {sources.data && totals?.citations === 0 && <NoAnswers what="citations" />}
      {sources.data && totals && totals.citations > 0 && (
        <>
          <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Stat
              label="Citations"
              value={formatNumber(totals.citations)}
              detail={`sources cited in ${periodPhrase(period)}`}
            />
            <Stat
              label={`${project.name}'s own sites`}
              value={formatNumber(totals.brand)}
              detail={
                <span className="inline-flex flex-wrap items-center gap-x-1">
                  <span>
                    {GLOSSARY.citation_share.name} {percent(totals.brand / totals.citations)} (
                    {formatNumber(totals.brand)} of {formatNumber(totals.citations)})
                  </span>
                  <FigureHint id="citation_share" />
                </span>
              }
            />
            <Stat
              label="Competitors' sites"
              value={formatNumber(totals.competitor)}
              detail={share(totals.competitor)}
            />
            {/* "Third-party", not "Other": "Other" is a kind of site, listed below (issue 24). */}
            <Stat
              label="Third-party sites"
              value={formatNumber(totals.other)}
              detail={`neither ${project.name}'s nor a competitor's; ${share(totals.other)}`}
            />
          </dl>
          <section aria-labelledby="categories-title" className="grid gap-2">
            <h3 id="categories-title" className="text-sm font-medium">
              Citations by kind of source
            </h3>
            <ul className="flex flex-wrap gap-2">
              {CATEGORIES.map((category) => (
                <li key={category} className="rounded-md border bg-card px-3 py-1.5 text-sm">
                  {CATEGORY_LABEL[category]}{" "}
                  <span className="font-medium tabular-nums">{formatNumber(sources.data.categories[category])}</span>
                </li>
              ))}
            </ul>
          </section>
          <SourcesChart sources={sources.data} subtitle={scopeLine(brand, engineName)} />
          <SourcesTables sources={sources.data} />
        </>
      )}
      {searches.isError && (
        <ErrorState
          error={searches.error}
          title="The searches could not be loaded"
          onRetry={() => searches.refetch()}
        />
      )}
      {searches.data && searches.data.totals.answers > 0 && <SearchesTable searches={searches.data} />}
    </div>
  );
}
