import type { Result } from "@sightline/sdk";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { MessageSquareDashedIcon } from "lucide-react";
import { FigureName } from "../../components/figure-hint.tsx";
import { EmptyState, ErrorState, LoadingState, Spinner } from "../../components/page-states.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { RelativeText } from "../../components/when.tsx";
import { position, score, sentimentWord } from "../../lib/figures.ts";
import { engineName, plural } from "../../lib/format.ts";
import { type BrandSearch, sharedFilters } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { type AnswerFilters, answersQuery } from "./answers-api.ts";

function excerpt(text: string | null): string {
  if (!text) return "";
  const plain = text
    .replace(/[#*_`>|[\]()-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return plain.length > 220 ? `${plain.slice(0, 220)}…` : plain;
}

function AnswerItem({ result, search }: { result: Result; search: BrandSearch & AnswerFilters }) {
  const { workspaceId, project } = useBrand();
  const named = result.brand?.mentioned ?? false;
  return (
    <li className="grid gap-1.5 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <Badge variant="outline">{engineName(result.engine)}</Badge>
        {result.status === "failed" ? (
          <Badge variant="destructive">Failed</Badge>
        ) : named ? (
          <Badge variant="success">Names {project.name}</Badge>
        ) : (
          <Badge variant="muted">Does not name {project.name}</Badge>
        )}
        <RelativeText value={result.created_at} />
      </div>
      <Link
        to="/w/$workspaceId/brands/$brandId/answers/$resultId"
        params={{ workspaceId, brandId: project.id, resultId: result.id }}
        search={search}
        className="w-fit font-medium text-primary underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        {result.prompt}
        <span className="sr-only">
          {" "}
          — {engineName(result.engine)}, sample {result.sample}
        </span>
      </Link>
      {result.status === "failed" ? (
        <p className="text-sm text-destructive">{result.error?.message ?? "The engine did not answer."}</p>
      ) : (
        <p className="text-sm text-muted-foreground">{excerpt(result.text)}</p>
      )}
      {result.status === "succeeded" && (
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
          <span>Position {named ? position(result.brand?.position) : "–"}</span>
          <span>Sentiment {named ? sentimentWord(result.brand?.sentiment) : "–"}</span>
          <span>Visibility score {score(result.score)}</span>
          <span>{plural(result.citations.length, "citation")}</span>
        </p>
      )}
    </li>
  );
}

/** The answers that match the filters, twenty at a time. */
export function AnswersList({ search }: { search: BrandSearch & AnswerFilters }) {
  const { workspaceId, project, period } = useBrand();
  const filters: AnswerFilters = { engine: search.engine, prompt: search.prompt, mentioned: search.mentioned };
  const answers = useInfiniteQuery(answersQuery(workspaceId, project.id, period, filters));
  const linkSearch = { ...sharedFilters(search), prompt: search.prompt, mentioned: search.mentioned };

  if (answers.isPending) return <LoadingState label="Loading answers…" />;
  if (answers.isError) {
    return (
      <ErrorState error={answers.error} title="The answers could not be loaded" onRetry={() => answers.refetch()} />
    );
  }
  const results = answers.data.pages.flatMap((page) => page.data);
  if (results.length === 0) {
    return (
      <EmptyState icon={<MessageSquareDashedIcon />} title="No answers match these filters">
        Choose a longer period, another engine or prompt, or clear the filters.
      </EmptyState>
    );
  }
  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          Showing {plural(results.length, "answer")}
          {answers.hasNextPage ? " (more below)" : ""}, newest first.
        </p>
        {/* The figures' hints once for the list, rather than a button on every answer. */}
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
          <span>Measured in each answer:</span>
          <span>Position (#1 = named first)</span>
          <FigureName id="sentiment" />
          <FigureName id="visibility_score" />
        </p>
      </div>
      <ul className="divide-y">
        {results.map((result) => (
          <AnswerItem key={result.id} result={result} search={linkSearch} />
        ))}
      </ul>
      {answers.hasNextPage && (
        <div>
          <Button variant="outline" onClick={() => answers.fetchNextPage()} disabled={answers.isFetchingNextPage}>
            {answers.isFetchingNextPage && <Spinner />}
            Load more answers
          </Button>
        </div>
      )}
    </div>
  );
}
