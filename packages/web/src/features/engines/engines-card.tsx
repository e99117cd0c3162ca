import { useQuery } from "@tanstack/react-query";
import { QueryState, RoleNote } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { atLeast } from "../../lib/roles.ts";
import { useWorkspace } from "../workspace/workspace-context.tsx";
import { AddEngineDialog } from "./add-engine-dialog.tsx";
import { EngineItem } from "./engine-item.tsx";
import { enginesQuery } from "./engines-api.ts";

/** Settings → Engines: which engines can answer for this workspace, and (owners and admins) their keys. */
export function EnginesCard() {
  const workspace = useWorkspace();
  const canManage = atLeast(workspace.role, "admin");
  const engines = useQuery(enginesQuery(workspace.id));
  const canConnect = engines.data?.workspace_keys ?? false;
  const list = engines.data?.data ?? [];
  const ready = list.filter((engine) => engine.can_run).length;

  return (
    <SectionCard
      id="engines"
      titleId="engines-title"
      title="Engines"
      description={
        engines.isSuccess
          ? `The AI engines this workspace can ask: ${ready} of ${list.length} can answer now. A key added here is used for this workspace only.`
          : "The AI engines this workspace can ask."
      }
      actions={canManage && canConnect && <AddEngineDialog workspaceId={workspace.id} />}
      contentClassName="grid gap-4"
    >
      {!canManage && (
        <RoleNote>Only admins and owners can add keys or test engines. You can see which engines can answer.</RoleNote>
      )}
      {engines.isSuccess && !canConnect && (
        <RoleNote>
          Whoever runs this Sightline server connects the engines: it does not let workspaces add keys of their own.
        </RoleNote>
      )}
      <QueryState query={engines} loading="Loading engines…" error="The engines could not be loaded" />
      {list.length > 0 && (
        <ul className="grid divide-y" aria-label="Engines">
          {list.map((engine) => (
            <EngineItem
              key={engine.name}
              workspaceId={workspace.id}
              engine={engine}
              canManage={canManage}
              canConnect={canConnect}
            />
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
