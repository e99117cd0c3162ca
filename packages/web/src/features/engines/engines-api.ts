import { queryOptions } from "@tanstack/react-query";
import type { DashboardOperations } from "../../generated/dashboard.ts";
import { appCall } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import type { EngineStatus, EngineTest } from "../../lib/types.ts";

type EngineChange = DashboardOperations["updateEngine"]["body"];
type NewEngine = DashboardOperations["createEngine"]["body"];

/** Every engine the workspace can name, with whether it can answer: Settings → Engines and the engine pickers read it. */
export function enginesQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "engines"),
    queryFn: ({ signal }) => appCall("listEngineStatuses", { params: { workspace: workspaceId } }, { signal }),
  });
}

/** The key goes out once, in this request; no answer ever holds it. */
export function updateEngine(workspaceId: string, engine: string, body: EngineChange): Promise<EngineStatus> {
  return appCall("updateEngine", { params: { workspace: workspaceId, engine }, body });
}

export function createEngine(workspaceId: string, body: NewEngine): Promise<EngineStatus> {
  return appCall("createEngine", { params: { workspace: workspaceId }, body });
}

export function removeEngine(workspaceId: string, engine: string): Promise<{ engine: EngineStatus | null }> {
  return appCall("removeEngine", { params: { workspace: workspaceId, engine } });
}

export function testEngine(workspaceId: string, engine: string): Promise<EngineTest> {
  return appCall("testEngine", { params: { workspace: workspaceId, engine } });
}
