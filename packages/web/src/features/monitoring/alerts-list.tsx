import type { Alert } from "@sightline/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BellIcon, CheckIcon, RotateCcwIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { EmptyState, QueryState, Spinner } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { RelativeText } from "../../components/when.tsx";
import { errorMessage } from "../../lib/api.ts";
import { engineName } from "../../lib/format.ts";
import { keys } from "../../lib/queries.ts";
import { cn } from "../../lib/utils.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { type AlertFilter, alertsQuery, setAlertAcknowledged } from "./monitoring-api.ts";

const FILTERS: { value: AlertFilter; label: string }[] = [
  { value: "open", label: "Open" },
  { value: "acknowledged", label: "Acknowledged" },
  { value: "all", label: "All" },
];

const EMPTY: Record<AlertFilter, string> = {
  open: "No open alert: every alert has been worked through, or none has fired.",
  acknowledged: "No alert has been acknowledged yet.",
  all: "None of the alert rules has fired for this brand.",
};

function AlertItem({ alert }: { alert: Alert }) {
  const { workspaceId, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const open = alert.status === "open";

  async function toggle() {
    setBusy(true);
    try {
      await setAlertAcknowledged(workspaceId, alert.id, open);
      // Every list of alerts, and the count in the navigation.
      await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "alerts") });
      toast.success(open ? "The alert was acknowledged" : "The alert was reopened");
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-start sm:justify-between">
      <div className="grid min-w-0 gap-1">
        <p className={cn("font-medium wrap-anywhere", !open && "text-muted-foreground")}>{alert.message}</p>
        <p className="flex flex-wrap items-center gap-x-1.5 gap-y-1 text-xs text-muted-foreground">
          <Badge variant={open ? "warning" : "muted"}>{open ? "Open" : "Acknowledged"}</Badge>
          <RelativeText value={alert.created_at} /> · {alert.engine ? engineName(alert.engine) : "all engines"}
          {alert.acknowledged_at && (
            <>
              {" "}
              · acknowledged <RelativeText value={alert.acknowledged_at} />
            </>
          )}
        </p>
      </div>
      {canEdit && (
        <Button
          variant="outline"
          size="sm"
          className="shrink-0"
          onClick={toggle}
          disabled={busy}
          aria-label={`${open ? "Acknowledge" : "Reopen"} alert: ${alert.message}`}
        >
          {busy ? <Spinner /> : open ? <CheckIcon aria-hidden="true" /> : <RotateCcwIcon aria-hidden="true" />}
          {open ? "Acknowledge" : "Reopen"}
        </Button>
      )}
    </li>
  );
}

/** The alerts that fired for the brand, newest first: open ones to work through, or those already acknowledged. */
export function AlertsList() {
  const { workspaceId, project } = useBrand();
  const [filter, setFilter] = useState<AlertFilter>("open");
  const alerts = useQuery(alertsQuery(workspaceId, project.id, filter));
  return (
    <SectionCard
      titleId="alerts-title"
      title="Alerts"
      description="What the schedules' alert rules caught, newest first. Acknowledge an alert once it has been worked through."
      actions={
        <fieldset className="flex rounded-md border p-0.5">
          <legend className="sr-only">Show alerts</legend>
          {FILTERS.map((option) => (
            <Button
              key={option.value}
              type="button"
              variant={filter === option.value ? "secondary" : "ghost"}
              size="sm"
              className="h-7"
              aria-pressed={filter === option.value}
              onClick={() => setFilter(option.value)}
            >
              {option.label}
            </Button>
          ))}
        </fieldset>
      }
    >
      <QueryState query={alerts} loading="Loading alerts…" error="The alerts could not be loaded" />
      {alerts.data?.data.length === 0 && (
        <EmptyState icon={<BellIcon />} title={filter === "open" ? "No open alerts" : "No alerts"}>
          {EMPTY[filter]}
        </EmptyState>
      )}
      {alerts.data && alerts.data.data.length > 0 && (
        <ul className="divide-y">
          {alerts.data.data.map((alert) => (
            <AlertItem key={alert.id} alert={alert} />
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
