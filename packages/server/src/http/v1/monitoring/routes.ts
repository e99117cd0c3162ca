import { listAlerts, setAlertAcknowledged } from "../../../services/monitoring/alert-list.ts";
import { listRuns } from "../../../services/monitoring/runs.ts";
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  runScheduleNow,
  updateSchedule,
} from "../../../services/monitoring/schedules.ts";
import {
  AlertListQuery,
  AlertListSchema,
  AlertSchema,
  MonitoringRunSchema,
  RunListQuery,
  RunListSchema,
  ScheduleCreateSchema,
  ScheduleDeletedSchema,
  ScheduleListQuery,
  ScheduleListSchema,
  ScheduleSchema,
  ScheduleUpdateSchema,
} from "../../../services/monitoring/schemas.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Monitoring";

export const listMonitoringRoute = defineRoute({
  operationId: "listMonitoring",
  method: "GET",
  path: "/monitoring",
  tag,
  summary: "List monitoring schedules",
  description:
    "The workspace's monitoring schedules, newest first, optionally of one brand; each with its next run time and last run.",
  scope: "monitoring",
  query: ScheduleListQuery,
  success: { status: 200, description: "A page of schedules.", schema: ScheduleListSchema },
  handler: ({ ctx, query }) => listSchedules(ctx, query),
});

export const createMonitoringRoute = defineRoute({
  operationId: "createMonitoring",
  method: "POST",
  path: "/monitoring",
  tag,
  summary: "Create a monitoring schedule",
  description:
    "Runs an analysis of a brand on a schedule (`{every: hour|day|week}` or a cron expression, in an IANA time zone), evaluates the alert rules after each run, and emits `monitoring.completed` and `alert.triggered`. Each run spends credits like any analysis; a run the allowance cannot pay for is recorded as skipped.",
  scope: "monitoring",
  body: ScheduleCreateSchema,
  success: { status: 201, description: "The schedule.", schema: ScheduleSchema },
  errors: ["NOT_FOUND", "ENGINE_NOT_ALLOWED"],
  handler: ({ ctx, body }) => createSchedule(ctx, body),
});

export const getMonitoringRoute = defineRoute({
  operationId: "getMonitoring",
  method: "GET",
  path: "/monitoring/:id",
  tag,
  summary: "Read a monitoring schedule",
  description: "One schedule, with its next run time and last run.",
  scope: "monitoring",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The schedule.", schema: ScheduleSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getSchedule(ctx, params.id),
});

export const updateMonitoringRoute = defineRoute({
  operationId: "updateMonitoring",
  method: "PATCH",
  path: "/monitoring/:id",
  tag,
  summary: "Change a monitoring schedule",
  description:
    "Changes the fields sent. New timing recomputes the next run from now; new alert rules start with a clean state.",
  scope: "monitoring",
  extension: true,
  params: IdParams,
  body: ScheduleUpdateSchema,
  success: { status: 200, description: "The schedule after the change.", schema: ScheduleSchema },
  errors: ["NOT_FOUND", "ENGINE_NOT_ALLOWED"],
  handler: ({ ctx, params, body }) => updateSchedule(ctx, params.id, body),
});

export const deleteMonitoringRoute = defineRoute({
  operationId: "deleteMonitoring",
  method: "DELETE",
  path: "/monitoring/:id",
  tag,
  summary: "Delete a monitoring schedule",
  description: "Stops future runs. Past runs' analyses, results, alerts and reports are kept.",
  scope: "monitoring",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "What was deleted.", schema: ScheduleDeletedSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => deleteSchedule(ctx, params.id),
});

export const runMonitoringRoute = defineRoute({
  operationId: "runMonitoring",
  method: "POST",
  path: "/monitoring/:id/run",
  tag,
  summary: "Run a monitoring schedule now",
  description: "Queues a run outside the schedule's slots, which are unaffected.",
  scope: "monitoring",
  extension: true,
  params: IdParams,
  success: {
    status: 202,
    description: "The run (skipped, with the reason, if it cannot be paid for).",
    schema: MonitoringRunSchema,
  },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => runScheduleNow(ctx, params.id),
});

export const listMonitoringRunsRoute = defineRoute({
  operationId: "listMonitoringRuns",
  method: "GET",
  path: "/monitoring/:id/runs",
  tag,
  summary: "List a schedule's runs",
  description: "Its runs, newest first, with summary and change against the previous run.",
  scope: "monitoring",
  extension: true,
  params: IdParams,
  query: RunListQuery,
  success: { status: 200, description: "A page of runs.", schema: RunListSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => listRuns(ctx, params.id, query),
});

export const listAlertsRoute = defineRoute({
  operationId: "listAlerts",
  method: "GET",
  path: "/alerts",
  tag,
  summary: "List alerts",
  description:
    "Alerts that fired, newest first, optionally of one brand or schedule, and only open or only acknowledged ones (`status`).",
  scope: "monitoring",
  extension: true,
  query: AlertListQuery,
  success: { status: 200, description: "A page of alerts.", schema: AlertListSchema },
  handler: ({ ctx, query }) => listAlerts(ctx, query),
});

export const acknowledgeAlertRoute = defineRoute({
  operationId: "acknowledgeAlert",
  method: "POST",
  path: "/alerts/:id/acknowledge",
  tag,
  summary: "Acknowledge an alert",
  description:
    "Marks an alert as worked through: its `status` becomes `acknowledged`, with who did it and when. Acknowledging it again changes nothing.",
  scope: "monitoring",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The alert, acknowledged.", schema: AlertSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => setAlertAcknowledged(ctx, params.id, true),
});

export const reopenAlertRoute = defineRoute({
  operationId: "reopenAlert",
  method: "POST",
  path: "/alerts/:id/reopen",
  tag,
  summary: "Reopen an alert",
  description: "Makes an acknowledged alert `open` again. Reopening an open alert changes nothing.",
  scope: "monitoring",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The alert, open.", schema: AlertSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => setAlertAcknowledged(ctx, params.id, false),
});
