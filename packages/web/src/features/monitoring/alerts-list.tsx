import { useQuery } from "@tanstack/react-query";
import { BellIcon } from "lucide-react";
import { EmptyState, ErrorState, LoadingState } from "../../components/page-states.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
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
    <Card aria-labelledby="alerts-title">
      <CardHeader>
        <div>
          <CardTitle id="alerts-title">Alerts</CardTitle>
          <CardDescription>What the schedules' alert rules caught, newest first.</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        {alerts.isPending && <LoadingState label="Loading alerts…" />}
        {alerts.isError && (
          <ErrorState error={alerts.error} title="The alerts could not be loaded" onRetry={() => alerts.refetch()} />
        )}
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
      </CardContent>
    </Card>
  );
}
