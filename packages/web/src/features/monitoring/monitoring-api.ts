import type {
  Alert,
  MonitoringRun,
  MonitoringSchedule,
  MonitoringScheduleCreate,
  MonitoringScheduleDeleted,
  MonitoringScheduleUpdate,
} from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export function schedulesQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "monitoring", projectId),
    queryFn: ({ signal }) =>
      v1Call(workspaceId, "listMonitoring", { query: { project_id: projectId, limit: 100 } }, { signal }),
    // Read again every two seconds while a schedule's last run is under way, so that it is seen to finish.
    refetchInterval: (query) =>
      query.state.data?.data.some((schedule) => schedule.last_run !== null && isUnderWay(schedule.last_run))
        ? 2000
        : false,
  });
}

function isUnderWay(run: Pick<MonitoringRun, "status">): boolean {
  return run.status === "queued" || run.status === "running";
}

export function runsQuery(workspaceId: string, projectId: string, scheduleId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "monitoring", projectId, scheduleId, "runs"),
    queryFn: ({ signal }) =>
      v1Call(workspaceId, "listMonitoringRuns", { params: { id: scheduleId }, query: { limit: 20 } }, { signal }),
    // Read again every two seconds while a run is under way, so that it is seen to finish.
    refetchInterval: (query) => (query.state.data?.data.some(isUnderWay) ? 2000 : false),
  });
}

/** Which of a brand's alerts are listed: those still open (by default), those acknowledged, or all. */
export type AlertFilter = "open" | "acknowledged" | "all";

export function alertsQuery(workspaceId: string, projectId: string, filter: AlertFilter) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "alerts", projectId, filter),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "listAlerts",
        { query: { project_id: projectId, limit: 50, ...(filter === "all" ? {} : { status: filter }) } },
        { signal },
      ),
  });
}

/** The workspace's open alerts (at most 100 counted): the navigation's badge. */
export function openAlertsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "alerts", "open"),
    queryFn: ({ signal }) => v1Call(workspaceId, "listAlerts", { query: { status: "open", limit: 100 } }, { signal }),
    refetchInterval: 60_000,
  });
}

export function setAlertAcknowledged(workspaceId: string, alertId: string, acknowledged: boolean): Promise<Alert> {
  return v1Call(workspaceId, acknowledged ? "acknowledgeAlert" : "reopenAlert", { params: { id: alertId } });
}

export function createSchedule(workspaceId: string, body: MonitoringScheduleCreate): Promise<MonitoringSchedule> {
  return v1Call(workspaceId, "createMonitoring", { body });
}

export function updateSchedule(
  workspaceId: string,
  scheduleId: string,
  body: MonitoringScheduleUpdate,
): Promise<MonitoringSchedule> {
  return v1Call(workspaceId, "updateMonitoring", { params: { id: scheduleId }, body });
}

export function deleteSchedule(workspaceId: string, scheduleId: string): Promise<MonitoringScheduleDeleted> {
  return v1Call(workspaceId, "deleteMonitoring", { params: { id: scheduleId } });
}

export function runScheduleNow(workspaceId: string, scheduleId: string): Promise<MonitoringRun> {
  return v1Call(workspaceId, "runMonitoring", { params: { id: scheduleId } });
}
