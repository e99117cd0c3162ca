import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { RelativeText } from "../../components/when.tsx";
import type { EngineStatus } from "../../lib/types.ts";
import { ConnectEngineDialog, useEnginesChanged } from "./connect-engine-dialog.tsx";
import { EngineStatusBadge, keyLine } from "./engine-status-badge.tsx";
import { removeEngine } from "./engines-api.ts";
import { TestConnection } from "./test-connection.tsx";

/** One engine: whether it can answer and with whose key; for owners and admins, its key, model and test. */
export function EngineItem({
  workspaceId,
  engine,
  canManage,
  canConnect,
}: {
  workspaceId: string;
  engine: EngineStatus;
  canManage: boolean;
  /** Whether the server lets workspaces set keys (SIGHTLINE_WORKSPACE_ENGINE_KEYS). */
  canConnect: boolean;
}) {
  const changed = useEnginesChanged(workspaceId);
  const model = engine.model ?? engine.default_model;

  async function remove() {
    await removeEngine(workspaceId, engine.name);
    await changed();
    toast.success(engine.custom ? `${engine.title} was removed` : `Your key for ${engine.title} was removed`);
  }

  return (
    <li className="grid gap-3 py-4 first:pt-0 last:pb-0 sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-6">
      <div className="grid min-w-0 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-medium">{engine.title}</h3>
          <EngineStatusBadge engine={engine} />
          {engine.custom && <Badge variant="outline">Your endpoint</Badge>}
        </div>
        <p className="text-xs text-muted-foreground">
          {engine.vendor ?? "OpenAI-compatible API"} · <code>{engine.name}</code>
          {engine.base_url && <span className="break-all"> · {engine.base_url}</span>}
        </p>
        <p className="text-sm">
          {keyLine(engine, canManage)}
          {engine.needs_key && model && (
            <span className="text-muted-foreground">
              {" "}
              · Model <span className="font-mono text-xs">{model}</span>
            </span>
          )}
        </p>
        {engine.source === "none" && engine.needs_key && engine.in_plan && (
          <p className="text-sm text-muted-foreground">
            {canManage ? "Add a key to let runs ask it." : "An admin can add a key."}
          </p>
        )}
        {engine.status === "failing" && engine.last_error && (
          <p className="text-sm break-words text-destructive [overflow-wrap:anywhere]">
            Last test failed: {engine.last_error}
          </p>
        )}
        {/* No key is said above; other reasons (the plan, a key that cannot be read) in full. */}
        {!engine.can_run && engine.reason && (engine.status !== "no_key" || engine.source === "workspace") && (
          <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{engine.reason}</p>
        )}
        {engine.tested_at && (
          <p className="text-xs text-muted-foreground">
            Tested <RelativeText value={engine.tested_at} />
          </p>
        )}
        {canManage && engine.needs_key && engine.status !== "no_key" && (
          <div className="mt-2">
            <TestConnection workspaceId={workspaceId} engine={engine} />
          </div>
        )}
      </div>
      {canManage && engine.needs_key && (
        <div className="flex flex-wrap items-start gap-2 sm:justify-end">
          {canConnect && <ConnectEngineDialog workspaceId={workspaceId} engine={engine} />}
          {(engine.custom || engine.key_hint !== null) && (
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm">
                  Remove
                  <span className="sr-only"> {engine.custom ? engine.title : `your key for ${engine.title}`}</span>
                </Button>
              }
              title={engine.custom ? `Remove ${engine.title}?` : `Remove your key for ${engine.title}?`}
              description={
                engine.custom
                  ? "Runs can no longer ask it. Its answers so far stay, under its name."
                  : "This workspace goes back to the server's key, if it has one; otherwise the engine cannot answer."
              }
              confirmLabel="Remove"
              destructive
              onConfirm={remove}
            />
          )}
        </div>
      )}
    </li>
  );
}
