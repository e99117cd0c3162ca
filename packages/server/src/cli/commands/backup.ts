import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { backupKeyPath, configuredKey, type KeyOutcome, restoreKey, writeKeyFile } from "../../app/backup-key.ts";
import type { Config } from "../../config/config.ts";
import { backupDatabase, restoreDatabase } from "../../db/backup/backup.ts";
import { count } from "../../lib/plural.ts";
import { type Io, outputMode, required } from "../io.ts";

export const BACKUP_USAGE = `Usage:
  sightline backup --to PATH [--with-secret-key] [--force] [--json]
Copies the database while Sightline runs (through DATABASE_DIRECT_URL when set, never a pooler): on SQLite one verified database file, on PostgreSQL a
pg_dump archive (--format=custom; pg_dump must be on PATH). Encrypted secrets cannot be read
without the secret key, which is not in the backup: keep it too. --with-secret-key writes it to
PATH.key (mode 0600); store the two apart. --force overwrites PATH (docs/backups.md).`;

export const RESTORE_USAGE = `Usage:
  sightline restore --from PATH [--force] [--json]
Stop every Sightline process first. Restores a backup into the database (DATABASE_DIRECT_URL when set), which must be empty
(--force replaces what it holds), then applies the migrations of newer versions. A PATH.key
beside the backup becomes the data folder's key when no key is configured (docs/backups.md).`;

const SECRETS =
  "webhook signing secrets, workspaces' engine keys, Slack alert URLs, Google Analytics credentials, signed links";

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

export async function backupCommand(config: Config, args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      to: { type: "string" },
      "with-secret-key": { type: "boolean" },
      force: { type: "boolean" },
      json: { type: "boolean" },
    },
    strict: true,
    allowPositionals: false,
  });
  const mode = outputMode(values);
  const to = resolve(io.cwd, required(values, "to"));
  const force = values.force === true;
  const key = configuredKey(config.secretKeys, config.dataDir);
  const withKey = values["with-secret-key"] === true;
  if (withKey && key === null) {
    throw new Error(
      `--with-secret-key: no key to write (SIGHTLINE_SECRET_KEY is unset and ${config.dataDir} has no secret.key); run this where the server's key is configured`,
    );
  }
  const keyPath = withKey && key !== null ? backupKeyPath(to) : null;
  if (keyPath !== null && !force && existsSync(keyPath)) {
    throw new Error(`${keyPath} already exists: choose another path, or add --force`);
  }
  const summary = await backupDatabase(direct(config), to, { force });
  if (keyPath !== null && key !== null) writeKeyFile(keyPath, key.keys, { force });

  if (mode === "json") {
    io.out(JSON.stringify({ ...summary, secret_key: { from: key?.from ?? null, written_to: keyPath } }, null, 2));
  } else {
    io.out(
      `Backed up ${summary.database} to ${summary.path} in ${summary.seconds.toFixed(2)} s: ${megabytes(summary.bytes)}, verified.`,
    );
    io.out(
      `  ${Object.entries(summary.rows)
        .map(([table, rows]) => `${table} ${rows.toLocaleString("en-US")}`)
        .join(", ")}; schema ${summary.schema ?? "(none)"}`,
    );
  }
  if (keyPath !== null) {
    io.err(
      `Wrote the secret key (${key?.from}) to ${keyPath}, mode 0600. With it, the backup's encrypted secrets can be read: store it apart from the backup.`,
    );
  } else if (key !== null) {
    io.err(
      `Keep the secret key with this backup: it is not in it, and without it a restore cannot read ${SECRETS}. This server's key: ${key.from} (--with-secret-key writes it beside the backup).`,
    );
  } else {
    io.err(
      `No secret key here (SIGHTLINE_SECRET_KEY is unset and ${config.dataDir} has no secret.key): keep the key of the processes that serve this database with the backup, or a restore cannot read ${SECRETS}.`,
    );
  }
  return 0;
}

export async function restoreCommand(config: Config, args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { from: { type: "string" }, force: { type: "boolean" }, json: { type: "boolean" } },
    strict: true,
    allowPositionals: false,
  });
  const mode = outputMode(values);
  const from = resolve(io.cwd, required(values, "from"));
  const summary = await restoreDatabase(direct(config), from, { force: values.force === true });
  const key = restoreKey(from, config.secretKeys, config.dataDir);
  if (mode === "json") {
    io.out(JSON.stringify({ ...summary, secret_key: key }, null, 2));
  } else {
    io.out(
      `Restored ${summary.from} (${megabytes(summary.bytes)}, schema ${summary.schema ?? "(none)"}) into ${summary.database} in ${summary.seconds.toFixed(2)} s.`,
    );
    io.out(
      summary.migrated.length === 0
        ? "  The schema is up to date."
        : `  Applied ${count(summary.migrated.length, "newer migration")}: ${summary.migrated.join(", ")}.`,
    );
  }
  for (const note of summary.notes) io.err(note);
  const notice = keyNotice(key, from);
  if (notice !== null) io.err(notice);
  return 0;
}

function keyNotice(key: KeyOutcome, from: string): string | null {
  switch (key.status) {
    case "configured":
      return null;
    case "installed":
      return `Installed the backup's secret key as ${key.path}.`;
    case "absent":
      return `Start Sightline with the secret key of the server the backup was made on (SIGHTLINE_SECRET_KEY, or its data folder's secret.key): without it, ${SECRETS} cannot be read.`;
    case "differs":
      return `warning: ${key.from} is not the key in ${backupKeyPath(from)}: with it, ${SECRETS} of the backup cannot be read. Use the backup's key (docs/backups.md).`;
    case "several":
      return `The backup's key file holds several keys, which a data folder's key file cannot: set SIGHTLINE_SECRET_KEY to the content of ${key.path}.`;
  }
}

/**
 * The database as pg_dump and pg_restore must reach it: directly (DATABASE_DIRECT_URL), never
 * through a pooler in transaction mode, where their session settings (an empty search_path) would
 * stay on a pooled connection and break the server's next queries on it.
 */
function direct(config: Config): Config["database"] {
  const database = config.database;
  if (database.dialect !== "postgres" || config.directDatabaseUrl === null) return database;
  return { ...database, url: config.directDatabaseUrl };
}
