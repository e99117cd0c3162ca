import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// BI for an agency: one login role reads all its clients (issue 28, ADR 0035, docs/bi.md). PostgreSQL
// only; on SQLite it does nothing.
// - bi_grants: a grant names either one workspace or one agency (`agency_id`), never both, never
//   neither. Deleting the agency deletes its grant rows, as deleting a workspace does.
// - Where the views are installed (migration 2026-11-27-02-bi-views), the policy of every table a view
//   reads is replaced: a row is visible when its workspace is the one a grant of the querying login
//   role names, or a client workspace (agency_kind 'client'; a pitch never) of the agency a grant
//   names. Computed on every query, from `workspaces` as it is then: a client added later is seen at
//   once, one removed from the agency (or deleted) is not. The visible workspaces are gathered into
//   an array first (one InitPlan per query), so that an index on workspace_id still serves the
//   comparison, as it served 02's scalar subquery.
// - sightline_bi_views, the views' owner, may now read the three columns of `workspaces` the policies
//   read (column privileges: nothing else of the table). The login roles still hold no table grant.
// Where 02 left BI off (Sightline's role could not create roles), neither the role nor the policies
// exist: only bi_grants changes, and docs/bi.md says to run 02 and this one again once it can. Every
// statement here can run again.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

const OWNER = "sightline_bi_views";

/** The tables the views read, each with its workspace column, under row-level security (as in 02). */
const TABLES = ["projects", "results", "traffic_bot_hits", "traffic_referrals"];

/** The workspaces the querying login role may read: its grant's workspace, or its agency's clients. */
const VISIBLE = `ARRAY(
  SELECT g.workspace_id FROM bi_grants g
    WHERE g.role_name = current_user::text AND g.workspace_id IS NOT NULL
  UNION ALL
  SELECT w.id FROM bi_grants g JOIN workspaces w ON w.agency_id = g.agency_id
    WHERE g.role_name = current_user::text AND w.agency_kind = 'client'
)`;

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE bi_grants ADD COLUMN IF NOT EXISTS agency_id text`.execute(db);
  await sql`ALTER TABLE bi_grants ALTER COLUMN workspace_id DROP NOT NULL`.execute(db);
  // Named constraints, added only when missing: ADD COLUMN IF NOT EXISTS … REFERENCES would not say
  // whether the constraint already stands.
  await sql
    .raw(`DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'bi_grants'::regclass AND conname = 'bi_grants_agency_id_fkey') THEN
        ALTER TABLE bi_grants ADD CONSTRAINT bi_grants_agency_id_fkey
          FOREIGN KEY (agency_id) REFERENCES agencies (id) ON DELETE CASCADE;
      END IF;
      IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'bi_grants'::regclass AND conname = 'bi_grants_one_scope') THEN
        ALTER TABLE bi_grants ADD CONSTRAINT bi_grants_one_scope CHECK (num_nonnulls(workspace_id, agency_id) = 1);
      END IF;
    END $$`)
    .execute(db);
  await sql`CREATE INDEX IF NOT EXISTS bi_grants_agency ON bi_grants (agency_id)`.execute(db);

  // Installed by 02, or BI is off: then there is nothing to replace, and no role to give anything to.
  const installed = await sql<{ installed: boolean }>`
    SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = ${OWNER})
      AND EXISTS (SELECT FROM pg_policy p WHERE p.polname = 'bi_workspace' AND p.polrelid = 'results'::regclass)
      AS installed`.execute(db);
  if (installed.rows[0]?.installed !== true) return;

  await sql.raw(`GRANT SELECT (id, agency_id, agency_kind) ON workspaces TO ${OWNER}`).execute(db);
  for (const table of TABLES) {
    await sql.raw(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`).execute(db);
    await sql.raw(`DROP POLICY IF EXISTS bi_workspace ON ${table}`).execute(db);
    await sql
      .raw(
        `CREATE POLICY bi_workspace ON ${table} AS PERMISSIVE FOR SELECT TO ${OWNER}
         USING (workspace_id = ANY (${VISIBLE}))`,
      )
      .execute(db);
  }
}
