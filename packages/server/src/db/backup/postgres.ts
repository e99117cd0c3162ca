import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";
import { type BackupContents, COUNTED_TABLES, type CountedTable } from "./contents.ts";
import { pgConnection, runPgTool } from "./pg-tools.ts";

/**
 * The migrations that install BI (docs/bi.md): schema `bi`, its views owned by `sightline_bi_views`,
 * the row-level security that confines each login to its workspaces. Both are written to run again.
 */
const BI_MIGRATIONS = ["2026-11-27-02-bi-views", "2026-11-27-04-bi-agencies"];

/**
 * Entries of an archive that a restore leaves to the BI migrations: schema `bi` and what is in it, the
 * policies and the switching on of row-level security. Restored without their owners (--no-owner),
 * the views would belong to Sightline's role, which row-level security does not confine, and a BI
 * login granted them would read every workspace; the migrations rebuild them as on a first install,
 * or leave BI off where the role may not.
 */
const BI_ENTRY = /^\d+; \d+ \d+ (POLICY |ROW SECURITY |SCHEMA - bi |[A-Z][A-Z ]* bi )/;

/**
 * Dumps the database with pg_dump while Sightline runs. The rows are counted in the very snapshot
 * pg_dump copies (exported from this connection's transaction), so the summary describes the archive.
 */
export async function backupPostgres(url: string, to: string): Promise<BackupContents> {
  mkdirSync(dirname(to), { recursive: true });
  const connection = pgConnection(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let contents: BackupContents;
  try {
    await client.query("begin isolation level repeatable read read only");
    const snapshot = (await client.query<{ id: string }>("select pg_export_snapshot() as id")).rows[0]?.id;
    if (snapshot === undefined) throw new Error("PostgreSQL exported no snapshot");
    const rows: Partial<Record<CountedTable, number>> = {};
    for (const table of COUNTED_TABLES) {
      rows[table] = Number((await client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]?.n);
    }
    const migrations = (
      await client.query<{ name: string }>("select name from schema_migrations order by name")
    ).rows.map((row) => row.name);
    contents = { rows: rows as Record<CountedTable, number>, migrations };
    await runPgTool(
      "pg_dump",
      ["--format=custom", `--snapshot=${snapshot}`, `--file=${to}`, `--dbname=${connection.url}`],
      connection.env,
    );
    await client.query("commit");
  } finally {
    await client.end();
  }
  chmodSync(to, 0o600);
  // The archive reads back, and holds the schema the snapshot had.
  const archived = await inspectPostgresBackup(to);
  if (archived.join() !== contents.migrations.join()) {
    throw new Error(`${to} does not hold the migrations the database has: the archive is incomplete`);
  }
  return contents;
}

/** Reads the archive's schema_migrations rows, which also proves pg_restore can read it. */
export async function inspectPostgresBackup(from: string): Promise<string[]> {
  const script = await runPgTool("pg_restore", ["--data-only", "--table=schema_migrations", "--file=-", from]);
  const lines = script.split("\n");
  const start = lines.findIndex((line) => /^COPY \S*schema_migrations \(/.test(line));
  if (start === -1) throw new Error(`${from} is not a Sightline backup (it has no schema_migrations rows)`);
  const rows: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "\\.") break;
    const name = line.split("\t")[0];
    if (name !== undefined && name !== "") rows.push(name);
  }
  return rows.sort();
}

/**
 * Restores the archive with pg_restore in one transaction, owned by DATABASE_URL's role (run Sightline
 * as that role: it must own its tables, docs/bi.md), then hands BI back to its migrations.
 */
export async function restorePostgres(
  url: string,
  from: string,
  options: { force: boolean },
): Promise<{ rebuilt: string[]; notes: string[] }> {
  const connection = pgConnection(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = Number(
      (
        await client.query<{ n: string }>(
          "select count(*) as n from pg_tables where schemaname = current_schema() or schemaname = 'bi'",
        )
      ).rows[0]?.n,
    );
    if (tables > 0 && !options.force) {
      throw new Error(
        `the database already has ${tables} tables: restore into an empty database, or stop Sightline and add --force to replace them`,
      );
    }
    if (tables > 0) await emptySchema(client);
  } finally {
    await client.end();
  }
  const list = (await runPgTool("pg_restore", ["--list", from]))
    .split("\n")
    .map((line) => (BI_ENTRY.test(line) ? `;${line}` : line))
    .join("\n");
  const dir = mkdtempSync(join(tmpdir(), "sightline-restore-"));
  try {
    const listFile = join(dir, "toc.list");
    writeFileSync(listFile, list, { mode: 0o600 });
    await runPgTool(
      "pg_restore",
      [
        "--clean",
        "--if-exists",
        "--no-owner",
        "--no-privileges",
        "--single-transaction",
        "--exit-on-error",
        `--use-list=${listFile}`,
        `--dbname=${connection.url}`,
        from,
      ],
      connection.env,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const after = new pg.Client({ connectionString: url });
  await after.connect();
  try {
    const rebuilt = await after.query<{ name: string }>(
      "delete from schema_migrations where name = any($1) returning name",
      [BI_MIGRATIONS],
    );
    const logins = Number((await after.query<{ n: string }>("select count(*) as n from bi_grants")).rows[0]?.n);
    return {
      rebuilt: rebuilt.rows.map((row) => row.name),
      notes:
        logins > 0
          ? [
              `The backup names ${logins} BI login(s) (bi_grants). Roles belong to the PostgreSQL server, not to a backup, and their grants on the rebuilt views were not restored: see \`sightline bi list\`, then \`bi revoke\` and \`bi grant\` each (docs/bi.md).`,
            ]
          : [],
    };
  } finally {
    await after.end();
  }
}

/**
 * --force: drops what the schema holds (tables, views, sequences, functions; not an extension's
 * objects) and schema `bi`, so that the restored database is the backup and nothing else, even when
 * a newer Sightline had migrated it further.
 */
async function emptySchema(client: pg.Client): Promise<void> {
  const objects = await client.query<{ kind: string; name: string }>(`
    select case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence'
             when 'f' then 'foreign table' else 'table' end as kind,
           format('%I.%I', n.nspname, c.relname) as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
       -- Not an extension's, nor a sequence a column owns (it goes with its table).
       and not exists (select from pg_depend d where d.objid = c.oid and d.deptype in ('e', 'a', 'i'))
    union all
    select 'function', p.oid::regprocedure::text
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = current_schema() and p.prokind = 'f'
       and not exists (select from pg_depend d where d.objid = p.oid and d.deptype = 'e')`);
  await client.query("begin");
  try {
    await client.query("drop schema if exists bi cascade");
    // Cascades: an object dropped with an earlier one is skipped by `if exists`.
    for (const { kind, name } of objects.rows) await client.query(`drop ${kind} if exists ${name} cascade`);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback");
    throw error;
  }
}
