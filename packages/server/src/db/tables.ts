import type { Generated } from "kysely";

/** Booleans, on both dialects: SQLite's 0/1 are converted by its driver (see columns.ts). */
type DbBool = boolean;

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
  workspace_engines: WorkspaceEnginesTable;
  workspace_branding: WorkspaceBrandingTable;
  traffic_imports: TrafficImportsTable;
  traffic_bot_hits: TrafficBotHitsTable;
  traffic_referrals: TrafficReferralsTable;
  traffic_ingest_tokens: TrafficIngestTokensTable;
  traffic_access_checks: TrafficAccessChecksTable;
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
  report_shares: ReportSharesTable;
  notifications: NotificationsTable;
  digest_subscriptions: DigestSubscriptionsTable;
  opportunity_sets: OpportunitySetsTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  members: MembersTable;
  invitations: InvitationsTable;
  installation: InstallationTable;
  result_rollups: ResultRollupsTable;
  engine_rollups: EngineRollupsTable;
  source_rollups: SourceRollupsTable;
  source_totals: SourceTotalsTable;
  remeasures: RemeasuresTable;
  judge_verdicts: JudgeVerdictsTable;
  resource_versions: ResourceVersionsTable;
  cost_usage: CostUsageTable;
  engine_batches: EngineBatchesTable;
  traffic_ga4_connections: TrafficGa4ConnectionsTable;
  changes: ChangesTable;
  bi_grants: BiGrantsTable;
  agencies: AgenciesTable;
  agency_members: AgencyMembersTable;
  agency_branding: AgencyBrandingTable;
  agency_credit_usage: AgencyCreditUsageTable;
  pitches: PitchesTable;
  personas: PersonasTable;
  persona_versions: PersonaVersionsTable;
  conversation_scripts: ConversationScriptsTable;
  conversations: ConversationsTable;
  oauth_clients: OAuthClientsTable;
  oauth_connections: OAuthConnectionsTable;
  oauth_codes: OAuthCodesTable;
}

/** Who asks (issue 29): a brand's persona, its current version. */
export interface PersonasTable {
  id: string;
  workspace_id: string;
  project_id: string;
  name: string;
  role: string | null;
  company_size: string | null;
  industry: string | null;
  constraints: string | null;
  location: string | null;
  language: string | null;
  active: DbBool;
  version: number;
  created_at: string;
  updated_at: string;
}

/** Every version of a persona: the text the engines received under it. */
interface PersonaVersionsTable {
  persona_id: string;
  version: number;
  workspace_id: string;
  name: string;
  /** JSON: the persona's fields at that version. */
  fields: string;
  /** What the engines receive: the fields as one text. */
  context: string;
  created_at: string;
}

/** A conversation script: an opening question and up to five follow-ups. */
export interface ConversationScriptsTable {
  id: string;
  workspace_id: string;
  project_id: string;
  name: string;
  /** JSON array of turn texts (templates). */
  turns: string;
  /** JSON object of the script's own template variables. */
  variables: string;
  persona_id: string | null;
  country: string | null;
  active: DbBool;
  created_at: string;
  updated_at: string;
}

/** One run of a script on one engine in an analysis, and what its turns measured. */
export interface ConversationsTable {
  id: string;
  workspace_id: string;
  project_id: string;
  analysis_id: string;
  script_id: string;
  /** Its script's place among the analysis's scripts: its turns' slots in the analysis. */
  script_index: number;
  script_name: string;
  turns: string;
  variables: string;
  engine: string;
  sample: number;
  persona_id: string | null;
  persona_version: number | null;
  country: string | null;
  /** running, completed (every turn answered), stopped (a turn failed or could not be written). */
  status: string;
  turns_answered: number;
  entry_turn: number | null;
  drop_turn: number | null;
  survived: DbBool | null;
  stop_reason: string | null;
  created_at: string;
  completed_at: string | null;
}

/** One vendor batch of an analysis's answers for one engine (ADR 0030). */
interface EngineBatchesTable {
  id: string;
  workspace_id: string;
  analysis_id: string;
  engine: string;
  vendor_batch_id: string;
  requests: number;
  /** submitted, then collected. */
  status: string;
  created_at: string;
  collected_at: string | null;
}

/** The answers' usage and cost per workspace, billing period and engine, added as analyses finish. */
interface CostUsageTable {
  workspace_id: string;
  period_start: string;
  engine: string;
  answers: number;
  input_tokens: number;
  output_tokens: number;
  search_calls: number;
  cost_micros: number;
}

/** Bumped by a trigger on every change to a resource's rows (projects): see the read cache. */
interface ResourceVersionsTable {
  workspace_id: string;
  resource: string;
  version: number;
}

interface SchemaMigrationsTable {
  name: string;
  applied_at: string;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  plan: string;
  billing_anchor: string;
  /** The agency that owns it (issue 28), or null for a workspace of its own. */
  agency_id: string | null;
  /** With `agency_id`: 'client' or 'pitch'. */
  agency_kind: string | null;
  /** A client's monthly credit cap within the agency's pool; null for none. */
  credit_cap: number | null;
  created_at: string;
  updated_at: string;
}

interface AgenciesTable {
  id: string;
  name: string;
  /** The pool every client draws on, per billing month. */
  credits_per_month: number;
  billing_anchor: string;
  /** The host name (with an optional port) its dashboard and share links are reached on. */
  custom_host: string | null;
  created_at: string;
  updated_at: string;
}

interface AgencyMembersTable {
  agency_id: string;
  user_id: string;
  /** admin, strategist or viewer. */
  role: string;
  created_at: string;
  updated_at: string;
}

/** The columns of workspace_branding, set once for every client of the agency. */
interface AgencyBrandingTable {
  agency_id: string;
  name: string | null;
  logo: string | null;
  logo_mime: string | null;
  primary_color: string | null;
  accent_color: string | null;
  show_sightline: DbBool;
  updated_at: string;
  updated_by: string | null;
}

interface AgencyCreditUsageTable {
  agency_id: string;
  period_start: string;
  used: number;
  updated_at: string;
}

interface PitchesTable {
  id: string;
  agency_id: string;
  /** The workspace of kind 'pitch' that holds its brand, analysis and report. */
  workspace_id: string;
  website: string;
  project_id: string | null;
  analysis_id: string | null;
  /** The report share made for it, once made. */
  share_id: string | null;
  created_by: string | null;
  converted_at: string | null;
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
  /** JSON array; [] in rows from before it existed. */
  case_sensitive_aliases: string;
  /** JSON array; [] in rows from before it existed. */
  exclusions: string;
  /** JSON array of { domain, category }; [] in rows from before it existed. */
  citation_categories: string;
  competitors: string;
  prompts: string;
  /** JSON object, prompt → its tags; {} in rows from before it existed. */
  prompt_tags: string;
  /** JSON array of the prompts switched off; [] in rows from before it existed. */
  paused_prompts: string;
  /** What the brand sells, as a buyer would say it; null in rows from before it existed. */
  category: string | null;
  /** JSON fact sheet; {} in rows from before it existed. */
  facts: string;
  engines: string;
  country: string | null;
  /** JSON: the countries the brand is tracked in; empty: `country`. */
  countries: string;
  language: string | null;
  created_at: string;
  updated_at: string;
  /** When the brand was deleted (restorable for 30 days, then purged); null while it is live. */
  deleted_at: string | null;
  /** The user who deleted it. */
  deleted_by: string | null;
}

/**
 * An engine a workspace connected itself (Settings → Engines): a key of its own for a built-in
 * engine, or an OpenAI-compatible endpoint (`custom`), with its last connection test.
 */
export interface WorkspaceEnginesTable {
  workspace_id: string;
  name: string;
  custom: DbBool;
  /** A custom engine's display name; null for a built-in one. */
  title: string | null;
  /** The key, encrypted (SecretBox); never returned. */
  api_key: string | null;
  /** The key's last four characters, the only part ever shown. */
  key_hint: string | null;
  model: string | null;
  base_url: string | null;
  /** untested, ready or failing. */
  status: string;
  /** The last test's error, scrubbed of secrets. */
  last_error: string | null;
  tested_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * How a workspace presents what it sends (reports, shared links, e-mails): services/branding owns
 * it. Null columns fall back to the workspace's name and the default colours.
 */
export interface WorkspaceBrandingTable {
  workspace_id: string;
  /** The name to sign with; null: the workspace's name. */
  name: string | null;
  /** The logo's bytes in base64; null: none. */
  logo: string | null;
  /** image/png or image/jpeg, with `logo`. */
  logo_mime: string | null;
  /** `#rrggbb`; null: the default. */
  primary_color: string | null;
  accent_color: string | null;
  /** False: "Sightline" appears nowhere on what is sent. */
  show_sightline: DbBool;
  updated_at: string;
  /** The user who last changed it. */
  updated_by: string | null;
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

interface UsageRequestsTable {
  workspace_id: string;
  period_start: string;
  endpoint: string;
  count: number;
}

interface CreditUsageTable {
  workspace_id: string;
  period_start: string;
  used: number;
  updated_at: string;
}

interface CreditEntriesTable {
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
  /** JSON: the personas asked under, [{id, version}]; empty: nobody in particular. */
  personas: Generated<string>;
  /** JSON: the countries asked from; empty: `country`. */
  countries: Generated<string>;
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
  /** Sent to the vendors' batch APIs where an engine has one (a run of a batch schedule). */
  batch: Generated<DbBool>;
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
  /** Counted in the rollups (answers stored before they existed are counted by a job). */
  rolled_up: Generated<DbBool>;
  /** The web searches the engine ran (JSON list of strings; '[]' for older answers and failures). */
  searches: Generated<string>;
  /** The answer's usage as its vendor reported it; null for failures and answers stored before costs. */
  input_tokens: number | null;
  output_tokens: number | null;
  search_calls: number | null;
  /** What the answer cost, in millionths of a USD. */
  cost_micros: number | null;
  persona_id: string | null;
  persona_version: number | null;
  country: string | null;
  conversation_id: string | null;
  /** Its turn in its conversation (from 1); 0 for a single answer. */
  turn: Generated<number>;
  response_id: string | null;
  /**
   * The month ('YYYY-MM', UTC) the answer's analysis started: the partition key on PostgreSQL
   * (migration 2026-11-28-01); null on rows written before it, on SQLite.
   */
  month: Generated<string | null>;
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
  /** Runs use the vendors' batch APIs where an engine has one. */
  batch: Generated<DbBool>;
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
  /** The run's answers' cost (JSON, the API's Cost), kept when it finishes. */
  cost: string | null;
  /** How many answers failed of how many, and why (JSON, the API's RunFailures), kept when it finishes. */
  failures: string | null;
  created_at: string;
  completed_at: string | null;
}

interface AlertsTable {
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
  /** When a member marked it as worked through; null while it is open. */
  acknowledged_at: string | null;
  acknowledged_by: string | null;
}

interface AlertStatesTable {
  schedule_id: string;
  rule_id: string;
  /** "all" or an engine's name. */
  scope: string;
  active: DbBool;
  updated_at: string;
}

/** A project's opportunities as last computed, and from which analysis's completion. */
interface OpportunitySetsTable {
  project_id: string;
  workspace_id: string;
  computed_at: string;
  /** What the set was computed from: the newest completed analysis's completed_at (or "" without one). */
  basis: string;
  data: string;
}

/**
 * One message to send through an alert channel or a digest: e-mail to `recipient`, or a Slack post
 * (`recipient` is then the incoming-webhook URL, encrypted). Written with its job.
 */
export interface NotificationsTable {
  id: string;
  workspace_id: string;
  kind: "alert" | "digest";
  /** The alert (`alt_`) or the weekly digest report (`rpt_`). */
  subject_id: string;
  channel: "email" | "slack";
  recipient: string;
  /** The member a digest goes to; null for alerts. */
  user_id: string | null;
  dedupe_key: string;
  status: "pending" | "sent" | "failed" | "canceled";
  attempt_count: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}

/** A member who asked for the weekly e-mail digest of a brand. */
interface DigestSubscriptionsTable {
  workspace_id: string;
  project_id: string;
  user_id: string;
  created_at: string;
}

/** A link opening one report without an account, until it expires or is revoked. */
export interface ReportSharesTable {
  id: string;
  workspace_id: string;
  report_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
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

/** A person who signs in to the dashboard (written by the authentication library). */
interface UsersTable {
  id: string;
  name: string;
  email: string;
  email_verified: DbBool;
  image: string | null;
  created_at: string;
  updated_at: string;
}

interface SessionsTable {
  id: string;
  user_id: string;
  token: string;
  expires_at: string;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
  updated_at: string;
}

/** A way to sign in; for e-mail and password, `provider_id` is `credential` and `password` its hash. */
interface AccountsTable {
  id: string;
  user_id: string;
  account_id: string;
  provider_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: string | null;
  refresh_token_expires_at: string | null;
  scope: string | null;
  password: string | null;
  created_at: string;
  updated_at: string;
}

interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

interface MembersTable {
  workspace_id: string;
  user_id: string;
  role: string;
  created_at: string;
  updated_at: string;
}

interface InvitationsTable {
  id: string;
  workspace_id: string;
  email: string;
  role: string;
  /** SHA-256 of the token in the link; the token itself is never stored. */
  token_hash: string;
  invited_by: string | null;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

interface InstallationTable {
  id: string;
  first_user_id: string;
  created_at: string;
}

/** What a rollup row counts: summed, never averaged; figures are computed from these. */
interface RollupCounts {
  answers: number;
  mentioned: number;
  cited: number;
  with_citations: number;
  position_sum: number;
  position_count: number;
  sentiment_sum: number;
  sentiment_count: number;
  citations: number;
  brand_citations: number;
  score_sum: number;
}

/**
 * Measured answers counted per engine, prompt and subject (the brand, `subject` "", or a competitor by
 * name), for each UTC day (`grain` "day") and each week (`grain` "week", `start` its Monday).
 */
export interface ResultRollupsTable extends RollupCounts {
  project_id: string;
  grain: string;
  /** YYYY-MM-DD: the day, or the week's Monday. */
  start: string;
  engine: string;
  /** A hash of the prompt: the key stays short whatever the prompt's length. */
  prompt_key: string;
  subject: string;
  workspace_id: string;
  prompt: string;
}

/** The same counts summed over prompts, per UTC day, engine and subject. */
export interface EngineRollupsTable extends RollupCounts {
  project_id: string;
  day: string;
  engine: string;
  subject: string;
  workspace_id: string;
}

/** Citations counted per engine and URL, for each UTC day and each week (as result_rollups). */
export interface SourceRollupsTable {
  project_id: string;
  grain: string;
  start: string;
  engine: string;
  url_key: string;
  workspace_id: string;
  url: string;
  domain: string;
  /** `brand`, `competitor` or `other`. */
  kind: string;
  competitor: string | null;
  citations: number;
  answers: number;
}

/** The source rollups summed over engines: what the sources of all engines read. */
export type SourceTotalsTable = Omit<SourceRollupsTable, "engine">;

/** A re-measure of a project's stored answers under the current rules (`POST /v1/projects/:id/remeasure`). */
export interface RemeasuresTable {
  id: string;
  workspace_id: string;
  project_id: string;
  /** queued → running → completed or failed. */
  status: string;
  /** The answers re-measured: stored in [range_from, range_to), null for unbounded. */
  range_from: string | null;
  range_to: string | null;
  total: number;
  done: number;
  /** Answers whose measure came out different. */
  changed: number;
  /** The id of the last answer re-measured ("" before the first): where a retry resumes. */
  cursor: string;
  score_version: string;
  job_id: string;
  error: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  updated_at: string;
}

/** The judge engine's verdict on one answer, cached (services/judge). */
interface JudgeVerdictsTable {
  workspace_id: string;
  /** sha256 of the prompt version, the names asked about, the answer's prompt and text. */
  key: string;
  /** JSON: name → whether the answer means that brand. */
  meant: string;
  /** The brand's tone in [-1, 1], when it was asked and answered. */
  tone: number | null;
  engine: string;
  prompt_version: string;
  created_at: string;
}

/** A batch of access-log lines imported for a project (issue 26); `digest` recognises it again. */
interface TrafficImportsTable {
  id: string;
  workspace_id: string;
  project_id: string;
  /** SHA-256 of the batch's decompressed bytes. */
  digest: string;
  /** cli | api | upload | drain */
  source: string;
  format: string;
  lines: number;
  bot_hits: number;
  referrals: number;
  ignored: number;
  rejected: number;
  created_at: string;
}

/** AI bot hits per day, host, page, bot, verification and status. No address, no user agent. */
interface TrafficBotHitsTable {
  workspace_id: string;
  project_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** The host asked for, lower case; "" when the log does not say. */
  host: string;
  path: string;
  bot: string;
  /** verified | spoofed | unverifiable */
  verification: string;
  /** The status served; 0 when the log does not say. */
  status: number;
  hits: number;
  last_at: string;
}

/** Visits referred by an AI engine per day, host, page and engine. */
interface TrafficReferralsTable {
  workspace_id: string;
  project_id: string;
  day: string;
  host: string;
  path: string;
  engine: string;
  visits: number;
}

/** A token a log drain pushes a brand's access logs with (issue 26); only its hash is kept. */
interface TrafficIngestTokensTable {
  id: string;
  workspace_id: string;
  project_id: string;
  name: string;
  /** SHA-256 of the token, hex. */
  token_hash: string;
  /** The token's first characters, to recognise it in a list. */
  start: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** The latest access audit of one brand domain: robots.txt per AI bot, llms.txt (issue 26). */
interface TrafficAccessChecksTable {
  workspace_id: string;
  project_id: string;
  domain: string;
  checked_at: string;
  /** The status robots.txt was served with; null when it could not be fetched. */
  robots_status: number | null;
  llms_status: number | null;
  /** JSON: the verdict per AI bot, with the rule that decides it. */
  verdicts: string;
  /** Why the domain could not be checked, when it could not. */
  error: string | null;
}

/** A brand's GA4 property and the service account that reads it (issue 26); the key only encrypted. */
export interface TrafficGa4ConnectionsTable {
  project_id: string;
  workspace_id: string;
  /** The numeric GA4 property id. */
  property_id: string;
  /** The service account's e-mail: the key's hint, never secret. */
  client_email: string;
  /** The service account's key as JSON, encrypted (SecretBox). */
  credentials: string;
  /** The Data API's base URL. */
  api_url: string;
  created_at: string;
  updated_at: string;
  last_synced_at: string | null;
  /** Why the last sync failed; null after one succeeds. */
  last_error: string | null;
  /** When the worker's daily sync is due. */
  next_sync_at: string;
}

/** A change the brand made, measured as an experiment (issue 27). */
export interface ChangesTable {
  id: string;
  workspace_id: string;
  project_id: string;
  title: string;
  changed_at: string;
  /** JSON array of the changed pages' URLs. */
  pages: string;
  placement_url: string | null;
  /** JSON arrays: the treated prompts and the controls. */
  prompts: string;
  control_prompts: string;
  prompts_proposed: DbBool;
  /** JSON array of engine ids. */
  engines: string;
  /** The effect the sample plan is made for, as a share. */
  effect: number;
  opportunity_id: string | null;
  schedule_id: string | null;
  /** When the result was ready; the answers read stop there. */
  result_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A database login role that reads the BI views of one workspace, or of every client of one agency
 * (issue 28, docs/bi.md): exactly one of the two is set. PostgreSQL only: the table does not exist on
 * SQLite. Its password is never stored here.
 */
interface BiGrantsTable {
  role_name: string;
  workspace_id: string | null;
  agency_id: string | null;
  created_at: string;
}

/** An application that registered itself to sign in to the MCP server (ADR 0038). */
export interface OAuthClientsTable {
  id: string;
  name: string;
  client_uri: string | null;
  /** JSON array of the redirect URIs it registered. */
  redirect_uris: string;
  /** How it authenticates at the token endpoint: `none` (PKCE only), `client_secret_post` or `client_secret_basic`. */
  auth_method: string;
  secret_hash: string | null;
  created_at: string;
}

/** What a member granted an application in one workspace, with its current tokens' hashes. */
interface OAuthConnectionsTable {
  id: string;
  workspace_id: string;
  user_id: string;
  client_id: string;
  /** JSON array of scopes. */
  scopes: string;
  access_hash: string;
  access_expires_at: string;
  refresh_hash: string;
  refresh_expires_at: string;
  /** The refresh token this one replaced: presented again, it revokes the connection. */
  spent_refresh_hash: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** An authorization code, hashed, until it is exchanged (and then, to catch a second use). */
interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  workspace_id: string;
  user_id: string;
  scopes: string;
  /** As the authorization request named it; null when it named none (the client's only one). */
  redirect_uri: string | null;
  code_challenge: string;
  resource: string | null;
  expires_at: string;
  connection_id: string | null;
}
