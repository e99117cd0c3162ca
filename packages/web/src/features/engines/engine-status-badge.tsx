import { Badge } from "../../components/ui/badge.tsx";
import type { EngineStatus } from "../../lib/types.ts";

const STATUS = {
  ready: { label: "Ready", variant: "success" },
  failing: { label: "Failing", variant: "destructive" },
  no_key: { label: "No key", variant: "muted" },
} as const;

/** Whether an engine can answer for the workspace: ready, failing (its last test), no key, or not in the plan. */
export function EngineStatusBadge({ engine }: { engine: EngineStatus }) {
  if (engine.status !== "no_key" && !engine.in_plan) return <Badge variant="muted">Not in plan</Badge>;
  const { label, variant } = STATUS[engine.status];
  return <Badge variant={variant}>{label}</Badge>;
}

/** Whose key an engine answers with, as a person reads it. */
export function keyLine(engine: EngineStatus, canManage: boolean): string {
  if (!engine.needs_key) return "Offline: needs no key";
  if (engine.source === "workspace") {
    if (engine.key_hint !== null) return `Your key •••• ${engine.key_hint}`;
    // Members and viewers are not shown the key's last characters; owners and admins see there is none.
    if (!canManage) return engine.custom ? "Your own endpoint" : "The workspace's own key";
    return engine.custom ? "Your own endpoint, without a key" : "The workspace's own key";
  }
  if (engine.source === "server") return "The server's key (set by whoever runs Sightline)";
  return "No key yet";
}
