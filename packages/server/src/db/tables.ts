import type { ColumnType, Generated } from "kysely";

/** Booleans: written as 1/0 (valid input for both dialects), read as boolean or 0/1; see `bool()`. */
export type DbBool = ColumnType<boolean | number, number, number>;

/**
 * Row types as the application sees them on BOTH dialects (see database.ts for the
 * normalisation): timestamps are ISO 8601 UTC strings, JSON columns are JSON text,
 * dates are `YYYY-MM-DD` strings, integers are numbers.
 */
export interface Tables {
  schema_migrations: SchemaMigrationsTable;
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  projects: ProjectsTable;
  events: EventsTable;
  usage_requests: UsageRequestsTable;
  credit_usage: CreditUsageTable;
  credit_entries: CreditEntriesTable;
  jobs: JobsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  analyses: AnalysesTable;
  results: ResultsTable;
  monitoring_schedules: MonitoringSchedulesTable;
  monitoring_runs: MonitoringRunsTable;
  alerts: AlertsTable;
  alert_states: AlertStatesTable;
  reports: ReportsTable;
}

export interface SchemaMigrationsTable {
  name: string;
  applied_at: string;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  plan: string;
  billing_anchor: string;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  key_hash: string;
  start: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface ProjectsTable {
  id: string;
  workspace_id: string;
  name: string;
  primary_domain: string;
  other_domains: string;
  aliases: string;
  competitors: string;
  prompts: string;
  engines: string;
  country: string | null;
  language: string | null;
  created_at: string;
  updated_at: string;
}

export interface EventsTable {
  /** Insertion order across processes, for consumers that read the outbox in order. */
  seq: Generated<number>;
  id: string;
  workspace_id: string;
  type: string;
  data: string;
  created_at: string;
}

export interface UsageRequestsTable {
  workspace_id: string;
  period_start: string;
  endpoint: string;
  count: number;
}

export interface CreditUsageTable {
  workspace_id: string;
  period_start: string;
  used: number;
  updated_at: string;
}

export interface CreditEntriesTable {
  id: string;
  workspace_id: string;
  period_start: string;
  engine: string;
  /** Positive for a reservation, negative for a release. */
  credits: number;
  /** What the credits were for: an analysis or monitoring run id. */
  reference: string;
  created_at: string;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  /** pending → running → succeeded, or back to pending for a retry, or dead after the last attempt. */
  status: string;
  run_at: string;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface WebhookEndpointsTable {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  events: string;
  active: DbBool;
  disabled_reason: string | null;
  secret_ciphertext: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  /** pending, succeeded, failed (after the last attempt or a 410) or canceled. */
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: string;
}

export interface AnalysesTable {
  id: string;
  workspace_id: string;
  project_id: string;
  /** queued → running → completed or failed. */
  status: string;
  /** api, monitoring or dashboard. */
  trigger: string;
  schedule_id: string | null;
  engines: string;
  prompts: string;
  samples: number;
  country: string | null;
  language: string | null;
  total_answers: number;
  credits_reserved: number;
  credits_released: number;
  errors: string;
  summary: string | null;
  score_version: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  updated_at: string;
}

export interface ResultsTable {
  id: string;
  workspace_id: string;
  project_id: string;
  analysis_id: string;
  engine: string;
  model: string | null;
  prompt: string;
  prompt_index: number;
  sample: number;
  /** succeeded or failed. */
  status: string;
  error: string | null;
  text: string | null;
  measure: string | null;
  mentioned: DbBool;
  position: number | null;
  sentiment: number | null;
  brand_cited: DbBool;
  citation_count: number;
  brand_citation_count: number;
  score: number | null;
  score_version: string;
  attempts: number;
  latency_ms: number;
  created_at: string;
}

export interface MonitoringSchedulesTable {
  id: string;
  workspace_id: string;
  project_id: string;
  /** Null: the project's at each run. */
  engines: string | null;
  prompts: string | null;
  samples: number;
  /** The schedule as the client gave it ({every, at, weekday} or {cron}). */
  schedule: string;
  /** The same as a cron expression, evaluated in `timezone`. */
  cron: string;
  timezone: string;
  alert_rules: string;
  active: DbBool;
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MonitoringRunsTable {
  id: string;
  workspace_id: string;
  schedule_id: string;
  project_id: string;
  /** The slot's time (ISO), or `manual:<id>` for a run asked for by hand. */
  slot: string;
  /** queued, running, completed, failed or skipped. */
  status: string;
  skip_reason: string | null;
  analysis_id: string | null;
  summary: string | null;
  change: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface AlertsTable {
  id: string;
  workspace_id: string;
  project_id: string;
  schedule_id: string;
  run_id: string;
  rule_id: string;
  rule: string;
  engine: string | null;
  observed: number | null;
  previous: number | null;
  message: string;
  created_at: string;
}

export interface AlertStatesTable {
  schedule_id: string;
  rule_id: string;
  /** "all" or an engine's name. */
  scope: string;
  active: DbBool;
  updated_at: string;
}

export interface ReportsTable {
  id: string;
  workspace_id: string;
  project_id: string;
  /** analysis, monitoring_run or weekly_digest. */
  type: string;
  analysis_id: string | null;
  run_id: string | null;
  schedule_id: string | null;
  period_start: string;
  period_end: string;
  /** What a report is of, once: an analysis, a run, or a project's week. */
  dedupe_key: string;
  title: string;
  data: string;
  created_at: string;
}
