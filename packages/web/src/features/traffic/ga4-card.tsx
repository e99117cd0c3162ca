import { useQuery, useQueryClient } from "@tanstack/react-query";
import { RefreshCwIcon, TriangleAlertIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { PendingButton } from "../../components/form.tsx";
import { QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Button } from "../../components/ui/button.tsx";
import { RelativeText } from "../../components/when.tsx";
import { errorMessage } from "../../lib/api.ts";
import { plural } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { Ga4Form } from "./ga4-form.tsx";
import { disconnectGa4, ga4Query, syncGa4, trafficKey } from "./traffic-api.ts";

const SYNC_DAYS = 30;

/**
 * "Google Analytics 4": a second source of AI-referred visits, for a site whose logs cannot be had.
 * Connected: the property, the service account, the last sync and its failure, "Sync now".
 */
export function Ga4Card() {
  const { workspaceId, project, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const ga4 = useQuery(ga4Query(workspaceId, project.id));
  const [editing, setEditing] = useState(false);
  const [syncing, setSyncing] = useState(false);
  const connection = ga4.data;

  async function sync() {
    setSyncing(true);
    try {
      const result = await syncGa4(workspaceId, project.id, SYNC_DAYS);
      toast.success(`GA4 synced: ${plural(result.referrals, "AI-referred visit")} in the last ${SYNC_DAYS} days.`);
    } catch (error) {
      toast.error(`The sync failed: ${errorMessage(error)}`);
    } finally {
      setSyncing(false);
      void queryClient.invalidateQueries({ queryKey: trafficKey(workspaceId, project.id) });
    }
  }

  async function disconnect() {
    await disconnectGa4(workspaceId, project.id);
    await queryClient.invalidateQueries({ queryKey: trafficKey(workspaceId, project.id) });
    toast.success("GA4 was disconnected");
  }

  return (
    <SectionCard
      id="ga4"
      titleId="ga4-title"
      title="Google Analytics 4"
      description={
        <>
          No access logs? Sightline can read from {project.name}'s GA4 property the visits AI engines sent (by their
          source), per day and page. GA4 counts visits only: it cannot see crawlers. Where logs and GA4 both count a
          visit, it is counted once.
        </>
      }
      contentClassName="grid gap-4"
    >
      <QueryState query={ga4} loading="Loading the GA4 connection…" error="The GA4 connection could not be loaded" />
      {ga4.isSuccess && connection === null && !canEdit && (
        <p className="text-sm text-muted-foreground">Not connected. A member can connect it.</p>
      )}
      {ga4.isSuccess && canEdit && (connection === null || editing) && (
        <Ga4Form onDone={() => setEditing(false)} {...(editing ? { onCancel: () => setEditing(false) } : {})} />
      )}
      {connection && !editing && (
        <>
          <dl className="grid gap-3 text-sm sm:gap-2">
            <div className="grid gap-0.5 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-6">
              <dt className="text-muted-foreground">Property</dt>
              <dd className="font-medium">{connection.property_id}</dd>
            </div>
            <div className="grid gap-0.5 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-6">
              <dt className="text-muted-foreground">Read as (service account)</dt>
              <dd className="wrap-anywhere">{connection.client_email}</dd>
            </div>
            <div className="grid gap-0.5 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-6">
              <dt className="text-muted-foreground">Last synced</dt>
              <dd>
                <RelativeText value={connection.last_synced_at} fallback="Not yet" /> · synced daily by itself
              </dd>
            </div>
          </dl>
          {connection.last_error && (
            <div
              role="alert"
              className="flex gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm"
            >
              <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
              <p>
                <strong className="font-semibold">The last sync failed.</strong> {connection.last_error}
              </p>
            </div>
          )}
          {canEdit && (
            <div className="flex flex-wrap gap-2">
              <PendingButton pending={syncing} onClick={sync}>
                {!syncing && <RefreshCwIcon aria-hidden="true" />}
                Sync now
              </PendingButton>
              <Button variant="outline" onClick={() => setEditing(true)}>
                Replace the key
              </Button>
              <ConfirmDialog
                trigger={<Button variant="outline">Disconnect</Button>}
                title="Disconnect GA4?"
                description="Its key is deleted and the daily sync stops. The visits it already counted stay on this page."
                confirmLabel="Disconnect"
                onConfirm={disconnect}
              />
            </div>
          )}
        </>
      )}
    </SectionCard>
  );
}
