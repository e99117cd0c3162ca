import type { Project, ProjectDeleted } from "@sightline/sdk";
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

/** The deleted brands that can still be restored, with the date each is purged (`purge_at`). */
export function deletedProjectsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "projects", "deleted"),
    queryFn: ({ signal }) => v1Call(workspaceId, "listProjects", { query: { deleted: true, limit: 100 } }, { signal }),
  });
}

/** What shows brands, and every figure of the brand: refreshed after a deletion or a restore. */
function refresh(queryClient: QueryClient, workspaceId: string, projectId: string) {
  void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "projects") });
  void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "analytics", projectId) });
}

/** Deletes the brand, then runs `leave` (off its pages, which would ask for it again) and forgets it. */
export async function deleteBrand(
  queryClient: QueryClient,
  workspaceId: string,
  projectId: string,
  leave: () => Promise<unknown>,
): Promise<ProjectDeleted> {
  const deleted = await v1Call(workspaceId, "deleteProject", { params: { id: projectId } });
  await leave();
  queryClient.removeQueries({ queryKey: keys.workspacePart(workspaceId, "projects", projectId) });
  refresh(queryClient, workspaceId, projectId);
  return deleted;
}

export async function restoreBrand(queryClient: QueryClient, workspaceId: string, projectId: string): Promise<Project> {
  const restored = await v1Call(workspaceId, "restoreProject", { params: { id: projectId } });
  queryClient.setQueryData(keys.workspacePart(workspaceId, "projects", projectId), restored);
  refresh(queryClient, workspaceId, projectId);
  return restored;
}
