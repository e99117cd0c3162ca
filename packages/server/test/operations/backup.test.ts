import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import type { DatabaseConfig } from "../../src/config/database-url.ts";
import { type Dialect, openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrate.ts";
import { MIGRATIONS } from "../../src/db/migrations/index.ts";
import { signPayload } from "../../src/services/webhooks/signature.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { createTestDatabase, DIALECTS } from "../helpers/databases.ts";
import { runCli, type ServerProcess, startServerProcess } from "../helpers/processes.ts";
import { Receiver } from "../helpers/receiver.ts";

/** The rows a restore must bring back: ids of every answer, key, subscription and event. */
const CHECKED = ["results", "api_keys", "webhook_endpoints", "events"] as const;
type Ids = Record<(typeof CHECKED)[number], string[]>;

async function idsIn(config: DatabaseConfig): Promise<Ids> {
  const database = openDatabase(config);
  try {
    const ids = {} as Ids;
    for (const table of CHECKED) {
      ids[table] = (await database.db.selectFrom(table).select("id").execute()).map((row) => row.id);
    }
    return ids;
  } finally {
    await database.close();
  }
}

async function countsIn(config: DatabaseConfig, tables: string[]): Promise<Record<string, number>> {
  const database = openDatabase(config);
  try {
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
        database.db,
      );
      counts[table] = Number(rows[0]?.n);
    }
    return counts;
  } finally {
    await database.close();
  }
}

/** Calls the API of a server process with a key; answers the status and the JSON body. */
async function call(
  server: ServerProcess,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL(`/v1${path}`, server.url), {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function stop(server: ServerProcess | undefined): Promise<void> {
  if (server === undefined || server.child.exitCode !== null) return;
  server.child.kill("SIGTERM");
  await server.exited;
}

/**
 * The key each dialect's servers encrypt with: on SQLite, SIGHTLINE_SECRET_KEY; on PostgreSQL, the
 * data folder's generated key file, which the backup copies and the restore installs. Both ways an
 * operator runs Sightline are covered, one per dialect.
 */
function keyEnv(dialect: Dialect, secretKey: string, dataDir: string): Record<string, string> {
  return dialect === "sqlite"
    ? { SIGHTLINE_SECRET_KEY: secretKey, SIGHTLINE_DATA_DIR: dataDir }
    : { SIGHTLINE_SECRET_KEY: "", SIGHTLINE_DATA_DIR: dataDir };
}

describe.each(DIALECTS)("backup and restore [%s]", (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("backs up a server under load, restores it elsewhere, and finds every answer, key, secret and event", async () => {
    const source = await createTestDatabase(dialect);
    const target = await createTestDatabase(dialect);
    const dir = mkdtempSync(join(tmpdir(), "sightline-backup-"));
    const receiver = await new Receiver().start();
    cleanups.push(
      async () => source.drop(),
      async () => target.drop(),
      async () => rmSync(dir, { recursive: true, force: true }),
      async () => receiver.stop(),
    );
    const secretKey = randomBytes(32).toString("base64");
    const common = {
      SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true",
      SIGHTLINE_RATE_LIMITS: "off",
      SIGHTLINE_JOB_POLL_MS: "100",
    };
    // Through the pooler, as the server runs; pg_dump and pg_restore go to the server directly.
    const sourceEnv = {
      DATABASE_URL: source.url,
      ...(dialect === "postgres" ? { DATABASE_DIRECT_URL: source.directUrl } : {}),
      ...keyEnv(dialect, secretKey, join(dir, "data-a")),
      ...common,
    };
    const targetEnv = {
      DATABASE_URL: target.url,
      ...(dialect === "postgres" ? { DATABASE_DIRECT_URL: target.directUrl } : {}),
      ...keyEnv(dialect, secretKey, join(dir, "data-b")),
      ...common,
    };
    if (dialect === "sqlite") targetEnv.DATABASE_URL = `sqlite:${join(dir, "elsewhere", "sightline.db")}`;
    const targetConfig: DatabaseConfig =
      dialect === "sqlite" ? { dialect, path: join(dir, "elsewhere", "sightline.db") } : target.config;

    const ws = await runCliInProcess(
      ["workspace", "create", "--name", "Backed up", "--plan", "agency", "--quiet"],
      sourceEnv,
    );
    expect(ws.code, ws.stderr).toBe(0);
    const created = await runCliInProcess(
      [
        "key",
        "create",
        "--workspace",
        ws.stdout.trim(),
        "--name",
        "ops",
        "--scopes",
        "read,projects,analyze,webhooks",
        "--quiet",
      ],
      sourceEnv,
    );
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim();

    const server = await startServerProcess(sourceEnv);
    cleanups.push(() => stop(server));
    const hook = await call(server, key, "POST", "/webhooks", {
      url: `${receiver.url}/hook`,
      events: ["project.created", "analysis.completed"],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const secret = String(hook.body.secret);
    const project = await call(server, key, "POST", "/projects", {
      name: "Acme",
      primary_domain: "acme.example.com",
      prompts: ["best crm for startups?", "cheapest crm?"],
    });
    expect(project.status).toBe(201);
    const analysis = await call(server, key, "POST", "/analyze", {
      project_id: project.body.id,
      engines: ["sandbox"],
      samples: 2,
      wait: true,
    });
    expect(analysis.body.status, JSON.stringify(analysis.body)).toBe("completed");

    // Requests keep flowing, from four clients, until the backup is done and a little after: brands
    // created (events, deliveries) and analysed (answers written by the server's worker).
    const load = { running: true, done: 0, failures: [] as string[] };
    const client = async (n: number) => {
      for (let i = 0; load.running; i++) {
        const brand = await call(server, key, "POST", "/projects", {
          name: `Load ${n}-${i}`,
          primary_domain: `load-${n}-${i}.example.com`,
          prompts: [`best tool number ${i}?`],
        });
        if (brand.status !== 201) load.failures.push(`POST /projects ${brand.status}`);
        else {
          const run = await call(server, key, "POST", "/analyze", { project_id: brand.body.id, engines: ["sandbox"] });
          if (run.status !== 202) load.failures.push(`POST /analyze ${run.status}`);
        }
        load.done++;
      }
    };
    const clients = [1, 2, 3, 4].map(client);
    while (load.done < 20) await new Promise((resolve) => setTimeout(resolve, 20));

    const before = await idsIn(source.config);
    const backupPath = join(dir, "backups", dialect === "sqlite" ? "sightline.db" : "sightline.dump");
    const doneBefore = load.done;
    const started = performance.now();
    const backup = await runCli(["backup", "--to", backupPath, "--with-secret-key", "--json"], sourceEnv);
    const backupSeconds = (performance.now() - started) / 1000;
    const duringBackup = load.done - doneBefore;
    await new Promise((resolve) => setTimeout(resolve, 200));
    load.running = false;
    await Promise.all(clients);
    expect(backup.code, backup.stderr).toBe(0);
    expect(load.failures).toEqual([]);
    expect(duringBackup).toBeGreaterThan(0);

    const summary = JSON.parse(backup.stdout) as { bytes: number; seconds: number; rows: Record<string, number> };
    expect(statSync(backupPath).mode & 0o777).toBe(0o600);
    expect(summary.rows.results).toBeGreaterThanOrEqual(before.results.length);
    expect(summary.rows.events).toBeGreaterThanOrEqual(before.events.length);
    // A snapshot taken mid-load: the server went on writing after it.
    const sourceAfter = await countsIn(source.config, ["projects"]);
    expect(sourceAfter.projects).toBeGreaterThan(summary.rows.projects ?? Number.POSITIVE_INFINITY);
    // The key file beside the backup is the key the server encrypted with, readable by its owner only.
    const keyFile = `${backupPath}.key`;
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const keyText = readFileSync(keyFile, "utf8").trim();
    expect(keyText).toBe(
      dialect === "sqlite" ? secretKey : readFileSync(join(dir, "data-a", "secret.key"), "utf8").trim(),
    );
    expect(backup.stderr).toContain("store it apart from the backup");
    await stop(server);

    const restore = await runCli(["restore", "--from", backupPath, "--json"], targetEnv);
    expect(restore.code, restore.stderr).toBe(0);
    const restored = JSON.parse(restore.stdout) as { migrated: string[]; secret_key: { status: string } };
    expect(restored.migrated).toEqual([]);
    expect(restored.secret_key.status).toBe(dialect === "sqlite" ? "configured" : "installed");
    // Exactly the snapshot the backup counted.
    expect(await countsIn(targetConfig, Object.keys(summary.rows))).toEqual(summary.rows);
    const after = await idsIn(targetConfig);
    for (const table of CHECKED) {
      const present = new Set(after[table]);
      expect(
        before[table].filter((id) => !present.has(id)),
        `${table} missing after the restore`,
      ).toEqual([]);
    }
    // A second restore over the restored data is refused, and changes nothing.
    const again = await runCliInProcess(["restore", "--from", backupPath], targetEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already (holds a database|has \d+ tables)/);

    const restoredServer = await startServerProcess(targetEnv);
    cleanups.push(() => stop(restoredServer));
    // The key still opens the door, to the answers stored before the backup.
    const answer = before.results[0] ?? "";
    expect((await call(restoredServer, key, "GET", `/results/${answer}`)).status).toBe(200);
    expect((await call(restoredServer, key, "GET", `/projects/${project.body.id}`)).status).toBe(200);
    // The subscription's secret decrypts: a new brand's event arrives signed with the secret given at creation.
    const brand = await call(restoredServer, key, "POST", "/projects", {
      name: "After restore",
      primary_domain: "after.example.com",
    });
    expect(brand.status).toBe(201);
    const delivered = await waitFor(
      () =>
        receiver.received.find((r) => {
          const event = JSON.parse(r.body) as { type: string; data: { object?: { id?: string } } };
          return event.type === "project.created" && event.data.object?.id === brand.body.id;
        }),
      () =>
        `${receiver.received.length} deliveries; restored server's output:\n${restoredServer.output().slice(-4000)}`,
    );
    const timestamp = Number(delivered.headers["x-webhook-timestamp"]);
    expect(delivered.headers["x-webhook-signature"]).toBe(signPayload(secret, timestamp, delivered.body));

    console.log(
      `[${dialect}] backup of ${summary.rows.results} answers, ${summary.rows.events} events, ${summary.rows.projects} brands: ${(summary.bytes / 1e6).toFixed(2)} MB in ${summary.seconds.toFixed(2)} s (the command, process start included: ${backupSeconds.toFixed(2)} s), ${duringBackup} load requests served meanwhile, none failed; the server went on to ${sourceAfter.projects} brands`,
    );
  }, 60_000);

  it("restores a backup of an older version into this one, refuses a newer one, and says what to run without pg_dump", async () => {
    const old = await createTestDatabase(dialect);
    const target = await createTestDatabase(dialect);
    const dir = mkdtempSync(join(tmpdir(), "sightline-backup-"));
    cleanups.push(
      async () => old.drop(),
      async () => target.drop(),
      async () => rmSync(dir, { recursive: true, force: true }),
    );
    const database = openDatabase(old.config);
    try {
      await migrateToLatest(database, MIGRATIONS.slice(0, -2));
    } finally {
      await database.close();
    }
    const backupPath = join(dir, "old.backup");
    const env = (url: string, direct = url) => ({
      DATABASE_URL: url,
      ...(dialect === "postgres" ? { DATABASE_DIRECT_URL: direct } : {}),
      SIGHTLINE_SECRET_KEY: "",
      SIGHTLINE_DATA_DIR: join(dir, "data"),
    });
    const backup = await runCliInProcess(["backup", "--to", backupPath], env(old.url, old.directUrl));
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`schema ${MIGRATIONS.at(-3)?.name}`);
    // No key here: the command says so rather than pretending the backup is complete.
    expect(backup.stderr).toContain("No secret key here");

    const targetUrl = dialect === "sqlite" ? `sqlite:${join(dir, "new.db")}` : target.url;
    const targetDirect = dialect === "sqlite" ? targetUrl : target.directUrl;
    const restore = await runCliInProcess(["restore", "--from", backupPath, "--json"], env(targetUrl, targetDirect));
    expect(restore.code, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout).migrated).toEqual(MIGRATIONS.slice(-2).map((m) => m.name));

    // The database a newer Sightline would back up: a migration this version does not know.
    const newer = openDatabase(old.config);
    try {
      await newer.db
        .insertInto("schema_migrations")
        .values({ name: "2099-01-01-01-future", applied_at: new Date().toISOString() })
        .execute();
    } finally {
      await newer.close();
    }
    const newerPath = join(dir, "newer.backup");
    expect((await runCliInProcess(["backup", "--to", newerPath], env(old.url, old.directUrl))).code).toBe(0);
    const refused = await runCliInProcess(["restore", "--from", newerPath, "--force"], env(targetUrl));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("made by a newer version of Sightline (migrations 2099-01-01-01-future)");

    if (dialect === "postgres") {
      // Without PostgreSQL's client tools, the command says what to install or run instead.
      const missing = await runCli(["backup", "--to", join(dir, "none.dump")], {
        ...env(old.url, old.directUrl),
        PATH: dir,
      });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("pg_dump is not on PATH");
      expect(missing.stderr).toContain('pg_dump --format=custom --file=PATH "$DATABASE_URL"');
    }
  }, 60_000);
});

async function waitFor<T>(find: () => T | undefined, explain: () => string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out: ${explain()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
