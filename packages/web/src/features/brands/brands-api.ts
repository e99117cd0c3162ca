import type { Project, ProjectCreate, ProjectList, ProjectUpdate } from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { api, v1 } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

/** The workspace's brands (projects), the first hundred: the brands page and the workspace's count. */
export function projectsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "projects"),
    queryFn: ({ signal }) => api<ProjectList>(v1(workspaceId, "/projects?limit=100"), { signal }),
  });
}

export function projectQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "projects", projectId),
    queryFn: ({ signal }) => api<Project>(v1(workspaceId, `/projects/${encodeURIComponent(projectId)}`), { signal }),
  });
}

export function createProject(workspaceId: string, body: ProjectCreate): Promise<Project> {
  return api<Project>(v1(workspaceId, "/projects"), { method: "POST", body });
}

export function updateProject(workspaceId: string, projectId: string, body: ProjectUpdate): Promise<Project> {
  return api<Project>(v1(workspaceId, `/projects/${encodeURIComponent(projectId)}`), { method: "PATCH", body });
}
