import type {
  Project,
  ProjectUpdate,
  PromptAdd,
  PromptChange,
  PromptSuggestions,
  PromptSuggestionsRequest,
} from "@sightline/sdk";
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
  return remember(queryClient, workspaceId, await updateProject(workspaceId, projectId, body));
}

/** Shows the brand as saved at once, and refreshes in the background what shows its prompts. */
function remember(queryClient: QueryClient, workspaceId: string, saved: Project): Project {
  queryClient.setQueryData(keys.workspacePart(workspaceId, "projects", saved.id), saved);
  void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "projects") });
  void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "analytics", saved.id) });
  return saved;
}

/**
 * One prompt at a time, applied by the server to the brand as it is then: another person's change
 * made meanwhile is kept (resending the whole list would undo it).
 */
export const promptChanges = {
  add: async (queryClient: QueryClient, workspaceId: string, projectId: string, body: PromptAdd) =>
    remember(queryClient, workspaceId, await v1Call(workspaceId, "addPrompt", { params: { id: projectId }, body })),
  change: async (queryClient: QueryClient, workspaceId: string, projectId: string, body: PromptChange) =>
    remember(queryClient, workspaceId, await v1Call(workspaceId, "changePrompt", { params: { id: projectId }, body })),
  remove: async (queryClient: QueryClient, workspaceId: string, projectId: string, prompt: string) =>
    remember(
      queryClient,
      workspaceId,
      await v1Call(workspaceId, "removePrompt", { params: { id: projectId }, query: { prompt } }),
    ),
};

/** Every tag of the brand's prompts, sorted. */
export function allTags(project: Project): string[] {
  return [...new Set(Object.values(project.prompt_tags ?? {}).flat())].sort((a, b) => a.localeCompare(b));
}
