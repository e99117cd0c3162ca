import { appCall } from "../../lib/api.ts";
import type { Workspace } from "../../lib/types.ts";

export function renameWorkspace(workspaceId: string, name: string): Promise<Workspace> {
  return appCall("renameWorkspace", { params: { workspace: workspaceId }, body: { name } });
}

export function deleteWorkspace(workspaceId: string, confirmName: string): Promise<unknown> {
  return appCall("deleteWorkspace", { params: { workspace: workspaceId }, body: { confirm_name: confirmName } });
}
