import type { Sightline } from "../client.ts";
import type { ListAlertsQuery, ListMonitoringQuery, ListMonitoringRunsQuery } from "../generated/operations.ts";
import type {
  Alert,
  AlertList,
  MonitoringRun,
  MonitoringRunList,
  MonitoringSchedule,
  MonitoringScheduleCreate,
  MonitoringScheduleDeleted,
  MonitoringScheduleList,
  MonitoringScheduleUpdate,
} from "../generated/schemas.ts";

/** Monitoring schedules and their alerts: `sightline.monitoring`. */
export class Monitoring {
  constructor(private readonly client: Sightline) {}

  list(query: ListMonitoringQuery = {}): Promise<MonitoringScheduleList> {
    return this.client.request("listMonitoring", { query });
  }

  /**
   * @example await sightline.monitoring.create({ project_id: "prj_…", schedule: { every: "day", at: "08:00" }, timezone: "Europe/Paris", alert_rules: [{ type: "visibility_drop", points: 10 }] });
   */
  create(body: MonitoringScheduleCreate): Promise<MonitoringSchedule> {
    return this.client.request("createMonitoring", { body });
  }

  retrieve(id: string): Promise<MonitoringSchedule> {
    return this.client.request("getMonitoring", { params: { id } });
  }

  update(id: string, body: MonitoringScheduleUpdate): Promise<MonitoringSchedule> {
    return this.client.request("updateMonitoring", { params: { id }, body });
  }

  delete(id: string): Promise<MonitoringScheduleDeleted> {
    return this.client.request("deleteMonitoring", { params: { id } });
  }

  /** Runs the schedule now, outside its slots. */
  run(id: string): Promise<MonitoringRun> {
    return this.client.request("runMonitoring", { params: { id } });
  }

  runs(id: string, query: ListMonitoringRunsQuery = {}): Promise<MonitoringRunList> {
    return this.client.request("listMonitoringRuns", { params: { id }, query });
  }

  alerts(query: ListAlertsQuery = {}): Promise<AlertList> {
    return this.client.request("listAlerts", { query });
  }

  /**
   * Marks an alert as worked through (`status: "acknowledged"`, with who and when).
   * @example await sightline.monitoring.acknowledgeAlert("alt_…");
   */
  acknowledgeAlert(id: string): Promise<Alert> {
    return this.client.request("acknowledgeAlert", { params: { id } });
  }

  /** Makes an acknowledged alert `open` again. */
  reopenAlert(id: string): Promise<Alert> {
    return this.client.request("reopenAlert", { params: { id } });
  }
}
