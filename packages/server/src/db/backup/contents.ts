/** Tables whose rows a backup counts: what an operator looks at first after a restore. */
export const COUNTED_TABLES = ["workspaces", "api_keys", "projects", "results", "events", "webhook_endpoints"] as const;
export type CountedTable = (typeof COUNTED_TABLES)[number];

/** What a backup holds, read from one snapshot of the database it copies. */
export interface BackupContents {
  rows: Record<CountedTable, number>;
  /** The migrations applied to the database, oldest first: the version of Sightline's schema. */
  migrations: string[];
}
