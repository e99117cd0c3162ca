import { getRouteApi } from "@tanstack/react-router";
import { AnswerFilters } from "../features/answers/answer-filters.tsx";
import { AnswersList } from "../features/answers/answers-list.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { FiltersBar } from "../features/brand-page/filters-bar.tsx";
import { useTitle } from "../lib/use-title.ts";

const route = getRouteApi("/_app/w/$workspaceId/brands/$brandId/answers");

export function BrandAnswersPage() {
  const { project } = useBrand();
  const search = route.useSearch();
  useTitle(`Answers · ${project.name}`);
  return (
    <div className="grid gap-6">
      <h2 className="sr-only">Answers</h2>
      <FiltersBar />
      <AnswerFilters prompt={search.prompt} mentioned={search.mentioned} />
      <AnswersList search={search} />
    </div>
  );
}
