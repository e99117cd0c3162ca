/**
 * Boolean columns, by table. PostgreSQL stores them as `boolean`, SQLite as integers 0/1 (the
 * migrations say so); the SQLite driver turns them into booleans on read and booleans into 0/1 on
 * write, so that rows are the same on both dialects. A migration adding a boolean column adds it here.
 */
export const BOOLEAN_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  webhook_endpoints: ["active"],
  results: ["mentioned", "brand_cited", "rolled_up"],
  monitoring_schedules: ["active", "batch"],
  analyses: ["batch"],
  personas: ["active"],
  conversation_scripts: ["active"],
  conversations: ["survived"],
  alert_states: ["active"],
  users: ["email_verified"],
  workspace_engines: ["custom"],
  workspace_branding: ["show_sightline"],
  agency_branding: ["show_sightline"],
  changes: ["prompts_proposed"],
};

export function isBooleanColumn(table: string | null, column: string | null): boolean {
  return table !== null && column !== null && (BOOLEAN_COLUMNS[table]?.includes(column) ?? false);
}
