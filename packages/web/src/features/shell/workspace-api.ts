import { api } from "../../lib/api.ts";
import type { WorkspaceSummary } from "../../lib/types.ts";

export function createWorkspace(name: string): Promise<WorkspaceSummary> {
  return api<WorkspaceSummary>("/workspaces", { method: "POST", body: { name } });
}
