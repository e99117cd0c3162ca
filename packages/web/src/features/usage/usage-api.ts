import type { Usage } from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { api, v1 } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export function usageQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "usage"),
    queryFn: ({ signal }) => api<Usage>(v1(workspaceId, "/usage"), { signal }),
  });
}
