import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { BackLink } from "../components/back-link.tsx";
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
      <BackLink
        to="/w/$workspaceId/brands/$brandId/answers"
        params={{ workspaceId, brandId: project.id }}
        search={search}
      >
        Back to the answers
      </BackLink>
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
