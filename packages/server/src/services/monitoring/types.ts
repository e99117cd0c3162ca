export type ScheduleSpec =
  | { every: "hour" }
  | { every: "day"; at?: string }
  | { every: "week"; at?: string; weekday?: Weekday }
  | { cron: string };

export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

interface RuleBase {
  /** Assigned by Sightline: `rule_1`, `rule_2`… in the order given. */
  id: string;
  /** Limit the rule to these engines, each judged on its own; all engines together when absent. */
  engines?: string[];
}

export type AlertRule =
  | (RuleBase & { type: "visibility_below"; threshold: number })
  | (RuleBase & { type: "visibility_drop"; points: number; require_significance?: boolean })
  | (RuleBase & { type: "competitor_overtakes"; competitor: string })
  | (RuleBase & { type: "brand_disappeared" })
  | (RuleBase & { type: "sentiment_below"; threshold: number })
  | (RuleBase & { type: "domain_not_cited" });

/** What clients send; checkRules turns it into a typed AlertRule (or a VALIDATION_ERROR). */
export interface AlertRuleInput {
  type: AlertRule["type"];
  threshold?: number;
  points?: number;
  require_significance?: boolean;
  competitor?: string;
  engines?: string[];
}

export interface ScheduleInput {
  project_id: string;
  engines?: string[] | null;
  prompts?: string[] | null;
  samples?: number;
  schedule: import("./schedule-spec.ts").ScheduleSpecInput;
  timezone?: string;
  alert_rules?: AlertRuleInput[];
  active?: boolean;
}

export type SchedulePatch = Partial<Omit<ScheduleInput, "project_id">>;

export interface RunView {
  id: string;
  object: "monitoring_run";
  schedule_id: string;
  project_id: string;
  /** The scheduled time this run is for, or null for a run asked for by hand. */
  slot: string | null;
  status: "queued" | "running" | "completed" | "failed" | "skipped";
  skip_reason: string | null;
  analysis_id: string | null;
  summary: import("../analyses/types.ts").AnalysisSummary | null;
  change: RunChange | null;
  created_at: string;
  completed_at: string | null;
}

export interface MetricChange {
  current: number | null;
  previous: number | null;
  delta: number | null;
}

/** The run against the previous completed run of the same schedule. */
export interface RunChange {
  previous_run_id: string;
  visibility: MetricChange & { significant: boolean };
  share_of_voice: MetricChange;
  average_position: MetricChange;
  sentiment_score: MetricChange;
  citation_rate: MetricChange;
  visibility_score: MetricChange;
}

export interface ScheduleView {
  id: string;
  object: "monitoring_schedule";
  project_id: string;
  engines: string[] | null;
  prompts: string[] | null;
  samples: number;
  schedule: ScheduleSpec;
  timezone: string;
  alert_rules: AlertRule[];
  active: boolean;
  next_run_at: string | null;
  last_run: RunView | null;
  created_at: string;
  updated_at: string;
}

export interface AlertView {
  id: string;
  object: "alert";
  project_id: string;
  schedule_id: string;
  run_id: string;
  rule: AlertRule;
  engine: string | null;
  observed: number | null;
  previous: number | null;
  message: string;
  created_at: string;
}
