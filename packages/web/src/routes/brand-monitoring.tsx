import type { MonitoringSchedule } from "@sightline/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CalendarClockIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { EmptyState, QueryState, RoleNote } from "../components/page-states.tsx";
import { SectionCard } from "../components/section-card.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { AlertsList } from "../features/monitoring/alerts-list.tsx";
import { DigestCard } from "../features/monitoring/digest-card.tsx";
import { schedulesQuery } from "../features/monitoring/monitoring-api.ts";
import { ScheduleDialog } from "../features/monitoring/schedule-dialog.tsx";
import { ScheduleItem } from "../features/monitoring/schedule-item.tsx";
import { keys } from "../lib/queries.ts";
import { useTitle } from "../lib/use-title.ts";

export function BrandMonitoringPage() {
  const { workspaceId, project, canEdit } = useBrand();
  useTitle(`Monitoring · ${project.name}`);
  const schedules = useQuery(schedulesQuery(workspaceId, project.id));
  useRefreshOnRuns(schedules.data?.data);
  return (
    <div className="grid gap-6">
      <h2 className="sr-only">Monitoring</h2>
      <SectionCard
        titleId="schedules-title"
        title="Schedules"
        description="Analyses that run by themselves, compared with the run before, with alert rules checked after each."
        actions={canEdit && <ScheduleDialog />}
        contentClassName="grid gap-4"
      >
        {!canEdit && <RoleNote>Viewers see the schedules; members and admins create and change them.</RoleNote>}
        <QueryState query={schedules} loading="Loading schedules…" error="The schedules could not be loaded" />
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
      </SectionCard>
      <AlertsList />
      <DigestCard />
    </div>
  );
}

/**
 * When a schedule's last run changes (a new run, or one that finishes), what runs change is read
 * again: the runs, the alerts they fired, the analyses and reports, and the brand's figures. Keyed on
 * the runs themselves, so a run that finishes before the page first sees it still refreshes them.
 */
function useRefreshOnRuns(schedules: readonly MonitoringSchedule[] | undefined) {
  const { workspaceId, project } = useBrand();
  const queryClient = useQueryClient();
  const seen = useRef<string>(undefined);
  const runs = schedules?.map((s) => `${s.id}:${s.last_run?.id ?? ""}:${s.last_run?.status ?? ""}`).join(",");
  useEffect(() => {
    if (runs === undefined) return;
    if (seen.current !== undefined && seen.current !== runs) {
      for (const part of ["monitoring", "analyses", "reports", "analytics", "results"]) {
        void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, part, project.id) });
      }
      // Every list of alerts, and the open alerts' count in the navigation.
      void queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "alerts") });
    }
    seen.current = runs;
  }, [runs, queryClient, workspaceId, project.id]);
}
