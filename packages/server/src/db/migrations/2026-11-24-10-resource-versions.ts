import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Resource versions (issue 16): a counter per workspace and resource, bumped by a trigger in the
// transaction of every insert, update or delete of the resource's rows, whatever code (or person)
// makes the change. A reader that finds the version unchanged knows that its cached answer is
// still the database's, in any process: the read path's cache is never stale.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("resource_versions")
    .addColumn("workspace_id", "text", (c) => c.notNull())
    .addColumn("resource", "text", (c) => c.notNull())
    .addColumn("version", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("resource_versions_pk", ["workspace_id", "resource"])
    .execute();

  if (pg) {
    await sql`
      create function sightline_bump_projects_version() returns trigger language plpgsql as $$
      declare
        ws text;
      begin
        if tg_op = 'DELETE' then ws := old.workspace_id; else ws := new.workspace_id; end if;
        insert into resource_versions (workspace_id, resource, version) values (ws, 'projects', 1)
          on conflict (workspace_id, resource) do update set version = resource_versions.version + 1;
        return null;
      end
      $$`.execute(db);
    await sql`
      create trigger projects_version after insert or update or delete on projects
      for each row execute function sightline_bump_projects_version()`.execute(db);
    return;
  }
  for (const [event, row] of [
    ["insert", "new"],
    ["update", "new"],
    ["delete", "old"],
  ] as const) {
    await sql
      .raw(
        `create trigger projects_version_${event} after ${event} on projects begin
           insert into resource_versions (workspace_id, resource, version) values (${row}.workspace_id, 'projects', 1)
             on conflict (workspace_id, resource) do update set version = version + 1;
         end`,
      )
      .execute(db);
  }
}
