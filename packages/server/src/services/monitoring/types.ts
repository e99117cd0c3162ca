import type { Static } from "typebox";
import type {
  AlertChannelsSchema,
  AlertRuleInputSchema,
  AlertSchema,
  FiredAlertSchema,
  MonitoringRunSchema,
  ScheduleCreateSchema,
  ScheduleSchema,
  ScheduleSpecSchema,
  ScheduleUpdateSchema,
  StoredAlertChannelsSchema,
  StoredAlertRuleSchema,
  StoredScheduleSpecSchema,
} from "./schemas.ts";

/** A schedule as checked and stored: one of the simple forms, or a cron expression. */
export type ScheduleSpec = Static<typeof StoredScheduleSpecSchema>;

/** An alert rule as checked and stored: each type with exactly the fields it takes. */
export type AlertRule = Static<typeof StoredAlertRuleSchema>;

/** What clients send; checkRules turns it into a typed AlertRule (or a VALIDATION_ERROR). */
export type AlertRuleInput = Static<typeof AlertRuleInputSchema>;

/** What clients send: `{every, at?, weekday?}` or `{cron}`, as one loose object. */
export type ScheduleSpecInput = Static<typeof ScheduleSpecSchema>;

export type ScheduleInput = Static<typeof ScheduleCreateSchema>;

export type SchedulePatch = Static<typeof ScheduleUpdateSchema>;

/** A schedule as the API, the events and the dashboard show it. */
export type ScheduleView = Static<typeof ScheduleSchema>;

export type RunView = Static<typeof MonitoringRunSchema>;

export type RunChange = NonNullable<RunView["change"]>;

export type RunFailures = NonNullable<RunView["failures"]>;

export type MetricChange = RunChange["share_of_voice"];

export type AlertView = Static<typeof AlertSchema>;

export type FiredAlertView = Static<typeof FiredAlertSchema>;

/** A rule's channels as clients send and read them (the Slack URL masked when read). */
export type AlertChannels = Static<typeof AlertChannelsSchema>;

/** A rule's channels as stored: the Slack URL encrypted. */
export type StoredAlertChannels = Static<typeof StoredAlertChannelsSchema>;
