import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { ChevronLeftIcon } from "lucide-react";
import { ErrorState, LoadingState } from "../components/page-states.tsx";
import { AnswerView } from "../features/answers/answer-view.tsx";
import { answerQuery } from "../features/answers/answers-api.ts";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { isNotFound } from "../lib/navigation.ts";
import { useTitle } from "../lib/use-title.ts";

const route = getRouteApi("/_app/w/$workspaceId/brands/$brandId/answers/$resultId");

export function BrandAnswerPage() {
  const { workspaceId, project } = useBrand();
  const { resultId } = route.useParams();
  const search = route.useSearch();
  const result = useQuery(answerQuery(workspaceId, resultId));
  useTitle(`Answer · ${project.name}`);
  return (
    <div className="grid gap-4">
      <h2 className="sr-only">Answer</h2>
      <Link
        to="/w/$workspaceId/brands/$brandId/answers"
        params={{ workspaceId, brandId: project.id }}
        search={search}
        className="inline-flex w-fit items-center gap-1 rounded-md text-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <ChevronLeftIcon className="size-4" aria-hidden="true" />
        Back to the answers
      </Link>
      {result.isPending && <LoadingState label="Loading the answer…" />}
      {result.isError &&
        (isNotFound(result.error) ? (
          <ErrorState error={result.error} title="This answer does not exist" />
        ) : (
          <ErrorState error={result.error} title="The answer could not be loaded" onRetry={() => result.refetch()} />
        ))}
      {result.data && <AnswerView result={result.data} />}
    </div>
  );
}
