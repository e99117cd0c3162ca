import type { Project, ProjectUpdate, PromptSuggestions, PromptSuggestionsRequest } from "@sightline/sdk";
import type { QueryClient } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import { updateProject } from "../brands/brands-api.ts";

/** Questions a buyer would ask, from an engine (one credit); nothing is stored until they are added. */
export function suggestPrompts(
  workspaceId: string,
  projectId: string,
  body: PromptSuggestionsRequest,
): Promise<PromptSuggestions> {
  return v1Call(workspaceId, "suggestPrompts", { params: { id: projectId }, body });
}

/**
 * Saves a change of the brand's prompts (their tags, their switch, new ones) through the ordinary
 * update, and refreshes what shows them: the brand, the brands list and its figures.
 */
export async function saveProject(
  queryClient: QueryClient,
  workspaceId: string,
  projectId: string,
  body: ProjectUpdate,
): Promise<Project> {
  const saved = await updateProject(workspaceId, projectId, body);
  queryClient.setQueryData(keys.workspacePart(workspaceId, "projects", projectId), saved);
  // Refreshed in the background: the brand shows the change at once.
  void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "projects") });
  void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "analytics", projectId) });
  return saved;
}

/** Every tag of the brand's prompts, sorted. */
export function allTags(project: Project): string[] {
  return [...new Set(Object.values(project.prompt_tags ?? {}).flat())].sort((a, b) => a.localeCompare(b));
}
