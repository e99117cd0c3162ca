import { appCall } from "../../lib/api.ts";
import type { WorkspaceSummary } from "../../lib/types.ts";

export function createWorkspace(name: string): Promise<WorkspaceSummary> {
  return appCall("createWorkspace", { body: { name } });
}
