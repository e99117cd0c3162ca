import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import type { Period } from "../../lib/period.ts";
import { keys } from "../../lib/queries.ts";

export interface AnswerFilters {
  engine?: string | undefined;
  prompt?: string | undefined;
  mentioned?: "yes" | "no" | undefined;
}

/** A brand's answers in the period, newest first, a page at a time (`cursor`). */
export function answersQuery(workspaceId: string, projectId: string, period: Period, filters: AnswerFilters) {
  const query = {
    project_id: projectId,
    from: period.from,
    to: period.to,
    limit: 20,
    ...(filters.engine ? { engine: filters.engine } : {}),
    ...(filters.prompt ? { prompt: filters.prompt } : {}),
    ...(period.tag ? { tag: period.tag } : {}),
    ...(filters.mentioned ? { mentioned: filters.mentioned === "yes" } : {}),
  };
  return infiniteQueryOptions({
    queryKey: keys.workspacePart(workspaceId, "results", projectId, JSON.stringify(query)),
    queryFn: ({ signal, pageParam }) =>
      v1Call(
        workspaceId,
        "listResults",
        { query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } },
        { signal },
      ),
    initialPageParam: "",
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  });
}

export function answerQuery(workspaceId: string, resultId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "result", resultId),
    queryFn: ({ signal }) => v1Call(workspaceId, "getResult", { params: { id: resultId } }, { signal }),
    staleTime: 5 * 60_000,
  });
}
