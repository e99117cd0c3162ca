import { createContext, useContext } from "react";
import type { Workspace } from "../../lib/types.ts";

const WorkspaceContext = createContext<Workspace | null>(null);

export const WorkspaceProvider = WorkspaceContext.Provider;

/** The workspace of the page, loaded once by the workspace layout. */
export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error("useWorkspace() is used outside a workspace page");
  return workspace;
}
