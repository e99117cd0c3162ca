import type { Result, ResultList } from "@sightline/sdk";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, v1 } from "../../lib/api.ts";
import type { Period } from "../../lib/period.ts";
import { keys } from "../../lib/queries.ts";

export interface AnswerFilters {
  engine?: string | undefined;
  prompt?: string | undefined;
  mentioned?: "yes" | "no" | undefined;
}

/** A brand's answers in the period, newest first, a page at a time (`cursor`). */
export function answersQuery(workspaceId: string, projectId: string, period: Period, filters: AnswerFilters) {
  const params = new URLSearchParams({ project_id: projectId, from: period.from, to: period.to, limit: "20" });
  if (filters.engine) params.set("engine", filters.engine);
  if (filters.prompt) params.set("prompt", filters.prompt);
  if (period.tag) params.set("tag", period.tag);
  if (filters.mentioned) params.set("mentioned", filters.mentioned === "yes" ? "true" : "false");
  return infiniteQueryOptions({
    queryKey: keys.workspacePart(workspaceId, "results", projectId, params.toString()),
    queryFn: ({ signal, pageParam }) => {
      const page = new URLSearchParams(params);
      if (pageParam) page.set("cursor", pageParam);
      return api<ResultList>(v1(workspaceId, `/results?${page}`), { signal });
    },
    initialPageParam: "",
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  });
}

export function answerQuery(workspaceId: string, resultId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "result", resultId),
    queryFn: ({ signal }) => api<Result>(v1(workspaceId, `/results/${encodeURIComponent(resultId)}`), { signal }),
    staleTime: 5 * 60_000,
  });
}
