import { queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export function usageQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "usage"),
    queryFn: ({ signal }) => v1Call(workspaceId, "getUsage", {}, { signal }),
  });
}
