import { useQuery } from "@tanstack/react-query";
import { BellIcon } from "lucide-react";
import { EmptyState, QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { RelativeText } from "../../components/when.tsx";
import { engineName } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { alertsQuery } from "./monitoring-api.ts";
import { describeRule } from "./schedule-draft.ts";

/** The alerts that fired for the brand, newest first. */
export function AlertsList() {
  const { workspaceId, project } = useBrand();
  const alerts = useQuery(alertsQuery(workspaceId, project.id));
  return (
    <SectionCard
      titleId="alerts-title"
      title="Alerts"
      description="What the schedules' alert rules caught, newest first."
    >
      <QueryState query={alerts} loading="Loading alerts…" error="The alerts could not be loaded" />
      {alerts.data?.data.length === 0 && (
        <EmptyState icon={<BellIcon />} title="No alerts">
          None of the alert rules has fired for {project.name}.
        </EmptyState>
      )}
      {alerts.data && alerts.data.data.length > 0 && (
        <ul className="divide-y">
          {alerts.data.data.map((alert) => (
            <li key={alert.id} className="grid gap-1 py-3 first:pt-0 last:pb-0">
              <p className="font-medium">{alert.message}</p>
              <p className="text-xs text-muted-foreground">
                <RelativeText value={alert.created_at} /> · {describeRule(alert.rule)} ·{" "}
                {alert.engine ? engineName(alert.engine) : "all engines"}
              </p>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
