import Type from "typebox";
import { AnalysisSummarySchema } from "../analyses/schemas.ts";
import { CostSchema } from "../usage/schemas.ts";
import { storedAs } from "../validate.ts";
import { RunChangeSchema, RunFailuresSchema, StoredAlertRuleSchema, StoredScheduleSpecSchema } from "./schemas.ts";

/** The JSON columns of `monitoring_schedules`, `monitoring_runs` and `alerts`, read through their schemas. */
export const scheduleColumns = {
  engines: storedAs("monitoring_schedules.engines", Type.Array(Type.String())),
  prompts: storedAs("monitoring_schedules.prompts", Type.Array(Type.String())),
  schedule: storedAs("monitoring_schedules.schedule", StoredScheduleSpecSchema),
  alertRules: storedAs("monitoring_schedules.alert_rules", Type.Array(StoredAlertRuleSchema)),
};

export const runColumns = {
  summary: storedAs("monitoring_runs.summary", AnalysisSummarySchema),
  change: storedAs("monitoring_runs.change", RunChangeSchema),
  cost: storedAs("monitoring_runs.cost", CostSchema),
  failures: storedAs("monitoring_runs.failures", RunFailuresSchema),
};

export const alertColumns = {
  rule: storedAs("alerts.rule", StoredAlertRuleSchema),
};
