import type { WebhookEndpoint } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { ChevronDownIcon, PauseIcon, PlayIcon, Trash2Icon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { DateText } from "../../components/when.tsx";
import { errorMessage } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import { cn } from "../../lib/utils.ts";
import { Deliveries } from "./deliveries.tsx";
import { RotateSecretDialog } from "./rotate-secret-dialog.tsx";
import { deleteWebhook, updateWebhook } from "./webhooks-api.ts";

function statusOf(endpoint: WebhookEndpoint) {
  if (endpoint.active) return { label: "Active", variant: "success" } as const;
  if (endpoint.disabled_reason) return { label: "Turned off by Sightline", variant: "destructive" } as const;
  return { label: "Paused", variant: "muted" } as const;
}

/** One subscription: where it sends, what, its state, its actions and its recent deliveries. */
export function WebhookItem({
  workspaceId,
  endpoint,
  canManage,
}: {
  workspaceId: string;
  endpoint: WebhookEndpoint;
  canManage: boolean;
}) {
  const queryClient = useQueryClient();
  const deliveriesId = useId();
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [toggling, setToggling] = useState(false);
  const status = statusOf(endpoint);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "webhooks") });

  async function setActive(active: boolean) {
    setToggling(true);
    try {
      await updateWebhook(workspaceId, endpoint.id, { active });
      await invalidate();
      toast.success(active ? "Deliveries resumed" : "Deliveries paused");
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setToggling(false);
    }
  }

  async function remove() {
    await deleteWebhook(workspaceId, endpoint.id);
    await invalidate();
    toast.success("Endpoint removed");
  }

  return (
    <li className="grid gap-3 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-mono text-sm wrap-anywhere">{endpoint.url}</p>
          {endpoint.description && <p className="mt-0.5 text-sm text-muted-foreground">{endpoint.description}</p>}
          <p className="mt-1 text-xs text-muted-foreground">
            Added <DateText value={endpoint.created_at} />
          </p>
        </div>
        <Badge variant={status.variant}>{status.label}</Badge>
      </div>
      {endpoint.disabled_reason && (
        <p className="text-sm text-destructive">
          Sightline stopped sending: {endpoint.disabled_reason}. Resume once the receiver is fixed.
        </p>
      )}
      <ul className="flex flex-wrap gap-1" aria-label="Events sent">
        {endpoint.events.map((type) => (
          <li key={type}>
            <Badge variant="outline" className="font-mono">
              {type}
            </Badge>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={showDeliveries}
          aria-controls={deliveriesId}
          onClick={() => setShowDeliveries((shown) => !shown)}
        >
          <ChevronDownIcon className={cn("transition-transform", showDeliveries && "rotate-180")} aria-hidden="true" />
          {showDeliveries ? "Hide recent deliveries" : "Show recent deliveries"}
        </Button>
        {canManage && (
          <>
            <Button
              variant="outline"
              size="sm"
              onClick={() => setActive(!endpoint.active)}
              disabled={toggling}
              aria-label={`${endpoint.active ? "Pause" : "Resume"} deliveries to ${endpoint.url}`}
            >
              {toggling ? (
                <Spinner />
              ) : endpoint.active ? (
                <PauseIcon aria-hidden="true" />
              ) : (
                <PlayIcon aria-hidden="true" />
              )}
              {endpoint.active ? "Pause" : "Resume"}
            </Button>
            <RotateSecretDialog workspaceId={workspaceId} endpointId={endpoint.id} url={endpoint.url} />
            <ConfirmDialog
              trigger={
                <Button variant="outline" size="sm" aria-label={`Delete endpoint ${endpoint.url}`}>
                  <Trash2Icon aria-hidden="true" />
                  Delete
                </Button>
              }
              title="Delete this endpoint?"
              description={`Sightline stops sending events to ${endpoint.url}, and deliveries still waiting for it are canceled. This cannot be undone.`}
              confirmLabel="Delete endpoint"
              onConfirm={remove}
            />
          </>
        )}
      </div>
      {showDeliveries && (
        <div id={deliveriesId} className="rounded-lg border p-3 sm:p-4">
          <h3 className="mb-2 text-sm font-medium">Recent deliveries</h3>
          <Deliveries workspaceId={workspaceId} endpointId={endpoint.id} canManage={canManage} />
        </div>
      )}
    </li>
  );
}
