import { useQuery } from "@tanstack/react-query";
import { CalendarClockIcon } from "lucide-react";
import { EmptyState, ErrorState, LoadingState, RoleNote } from "../components/page-states.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card.tsx";
import { useBrand } from "../features/brand/brand-context.tsx";
import { AlertsList } from "../features/monitoring/alerts-list.tsx";
import { schedulesQuery } from "../features/monitoring/monitoring-api.ts";
import { ScheduleDialog } from "../features/monitoring/schedule-dialog.tsx";
import { ScheduleItem } from "../features/monitoring/schedule-item.tsx";
import { useTitle } from "../lib/use-title.ts";

export function BrandMonitoringPage() {
  const { workspaceId, project, canEdit } = useBrand();
  useTitle(`Monitoring · ${project.name}`);
  const schedules = useQuery(schedulesQuery(workspaceId, project.id));
  return (
    <div className="grid gap-6">
      <h2 className="sr-only">Monitoring</h2>
      <Card aria-labelledby="schedules-title">
        <CardHeader>
          <div>
            <CardTitle id="schedules-title">Schedules</CardTitle>
            <CardDescription>
              Analyses that run by themselves, compared with the run before, with alert rules checked after each.
            </CardDescription>
          </div>
          {canEdit && <ScheduleDialog />}
        </CardHeader>
        <CardContent className="grid gap-4">
          {!canEdit && <RoleNote>Viewers see the schedules; members and admins create and change them.</RoleNote>}
          {schedules.isPending && <LoadingState label="Loading schedules…" />}
          {schedules.isError && (
            <ErrorState
              error={schedules.error}
              title="The schedules could not be loaded"
              onRetry={() => schedules.refetch()}
            />
          )}
          {schedules.data?.data.length === 0 && (
            <EmptyState icon={<CalendarClockIcon />} title="No schedules yet">
              {canEdit
                ? "Create one to measure the brand every day or week, and to be alerted when it changes."
                : "No one has scheduled this brand yet."}
            </EmptyState>
          )}
          {schedules.data && schedules.data.data.length > 0 && (
            <ul className="divide-y">
              {schedules.data.data.map((schedule) => (
                <ScheduleItem key={schedule.id} schedule={schedule} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <AlertsList />
    </div>
  );
}
