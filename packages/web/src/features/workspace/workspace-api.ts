import { api, ws } from "../../lib/api.ts";
import type { Workspace } from "../../lib/types.ts";

export function renameWorkspace(workspaceId: string, name: string): Promise<Workspace> {
  return api<Workspace>(ws(workspaceId), { method: "PATCH", body: { name } });
}

export function deleteWorkspace(workspaceId: string, confirmName: string): Promise<unknown> {
  return api(ws(workspaceId), { method: "DELETE", body: { confirm_name: confirmName } });
}
