import { useQuery } from "@tanstack/react-query";
import { ErrorState, QueryState } from "../components/page-states.tsx";
import { NoAnswers } from "../features/analyses/no-answers.tsx";
import { competitorsQuery, suggestionsQuery } from "../features/analytics/analytics-api.ts";
import { CompetitorSuggestionsCard } from "../features/analytics/competitor-suggestions.tsx";
import { Leaderboard } from "../features/analytics/leaderboard.tsx";
import { LeaderboardChart } from "../features/analytics/leaderboard-chart.tsx";
import { SignificanceNote } from "../features/analytics/significance.tsx";
import { scopeLine, useBrand } from "../features/brand-page/brand-context.tsx";
import { FiltersBar } from "../features/brand-page/filters-bar.tsx";
import { engineName } from "../lib/format.ts";
import { useTitle } from "../lib/use-title.ts";

export function BrandCompetitorsPage() {
  const brand = useBrand();
  const { workspaceId, project, period, search } = brand;
  useTitle(`Competitors · ${project.name}`);
  const board = useQuery(competitorsQuery(workspaceId, project.id, period, search.engine));
  const suggestions = useQuery(suggestionsQuery(workspaceId, project.id, period, search.engine));
  const answered = board.data?.data.some((row) => row.visibility.n > 0) ?? false;
  return (
    <div className="grid gap-6">
      <h2 className="sr-only">Competitors</h2>
      <FiltersBar />
      <QueryState query={board} loading="Loading the leaderboard…" error="The leaderboard could not be loaded" />
      {board.data && !answered && <NoAnswers what="competitor figures" />}
      {board.data && answered && (
        <>
          <Leaderboard board={board.data} />
          <SignificanceNote />
          <LeaderboardChart board={board.data} subtitle={scopeLine(brand, engineName)} />
        </>
      )}
      {suggestions.isError && (
        <ErrorState
          error={suggestions.error}
          title="The suggested competitors could not be loaded"
          onRetry={() => suggestions.refetch()}
        />
      )}
      {suggestions.data && suggestions.data.scanned > 0 && <CompetitorSuggestionsCard suggestions={suggestions.data} />}
    </div>
  );
}
