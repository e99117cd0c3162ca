import type { Generated } from "kysely";

/**
 * Row types as the application sees them on BOTH dialects (see dialect.ts for the
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
