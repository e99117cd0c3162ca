import type { Project, ProjectCreate, ProjectUpdate } from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

/** The workspace's brands (projects), the first hundred: the brands page and the workspace's count. */
export function projectsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "projects"),
    queryFn: ({ signal }) => v1Call(workspaceId, "listProjects", { query: { limit: 100 } }, { signal }),
  });
}

export function projectQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "projects", projectId),
    queryFn: ({ signal }) => v1Call(workspaceId, "getProject", { params: { id: projectId } }, { signal }),
  });
}

export function createProject(workspaceId: string, body: ProjectCreate): Promise<Project> {
  return v1Call(workspaceId, "createProject", { body });
}

export function updateProject(workspaceId: string, projectId: string, body: ProjectUpdate): Promise<Project> {
  return v1Call(workspaceId, "updateProject", { params: { id: projectId }, body });
}
