import type {
  AlertList,
  MonitoringRun,
  MonitoringRunList,
  MonitoringSchedule,
  MonitoringScheduleCreate,
  MonitoringScheduleDeleted,
  MonitoringScheduleList,
  MonitoringScheduleUpdate,
} from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { api, v1 } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export function schedulesQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "monitoring", projectId),
    queryFn: ({ signal }) =>
      api<MonitoringScheduleList>(
        v1(workspaceId, `/monitoring?project_id=${encodeURIComponent(projectId)}&limit=100`),
        {
          signal,
        },
      ),
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
      api<MonitoringRunList>(v1(workspaceId, `/monitoring/${encodeURIComponent(scheduleId)}/runs?limit=20`), {
        signal,
      }),
    // Read again every two seconds while a run is under way, so that it is seen to finish.
    refetchInterval: (query) => (query.state.data?.data.some(isUnderWay) ? 2000 : false),
  });
}

export function alertsQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "alerts", projectId),
    queryFn: ({ signal }) =>
      api<AlertList>(v1(workspaceId, `/alerts?project_id=${encodeURIComponent(projectId)}&limit=50`), { signal }),
  });
}

export function createSchedule(workspaceId: string, body: MonitoringScheduleCreate): Promise<MonitoringSchedule> {
  return api<MonitoringSchedule>(v1(workspaceId, "/monitoring"), { method: "POST", body });
}

export function updateSchedule(
  workspaceId: string,
  scheduleId: string,
  body: MonitoringScheduleUpdate,
): Promise<MonitoringSchedule> {
  return api<MonitoringSchedule>(v1(workspaceId, `/monitoring/${encodeURIComponent(scheduleId)}`), {
    method: "PATCH",
    body,
  });
}

export function deleteSchedule(workspaceId: string, scheduleId: string): Promise<MonitoringScheduleDeleted> {
  return api<MonitoringScheduleDeleted>(v1(workspaceId, `/monitoring/${encodeURIComponent(scheduleId)}`), {
    method: "DELETE",
  });
}

export function runScheduleNow(workspaceId: string, scheduleId: string): Promise<MonitoringRun> {
  return api<MonitoringRun>(v1(workspaceId, `/monitoring/${encodeURIComponent(scheduleId)}/run`), { method: "POST" });
}
