import { execFileSync, spawn } from "node:child_process";
import { chmodSync, rmSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** Debian's `pgbouncer` (apt-get install pgbouncer), or undefined. */
export function findPgBouncer(): string | undefined {
  return ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"].find((path) => {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  });
}

export interface PgBouncer {
  /** `postgresUrl` with PgBouncer's address in place of the server's. */
  url: string;
  version: string;
  stop(): Promise<void>;
  /** Synchronous, for an exit without teardown. */
  kill(): void;
}

async function answers(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * PgBouncer in transaction pooling mode in front of `postgresUrl`'s server, on `port` of 127.0.0.1,
 * for any database of it: what managed PostgreSQL offers as its pooler. Users are trusted (the server
 * behind it authenticates nothing more on loopback here); as root it drops to the postgres user,
 * since PgBouncer refuses to run as root.
 */
export async function startPgBouncer(binary: string, postgresUrl: string, port: number): Promise<PgBouncer> {
  const target = new URL(postgresUrl);
  const dir = await mkdtemp(join(tmpdir(), "sightline-pgbouncer-"));
  const users = ["postgres", "root", decodeURIComponent(target.username)].filter(
    (user, i, all) => user !== "" && all.indexOf(user) === i,
  );
  writeFileSync(join(dir, "userlist.txt"), `${users.map((user) => `"${user}" ""`).join("\n")}\n`);
  writeFileSync(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${target.hostname} port=${target.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 2000",
      "default_pool_size = 20",
      "ignore_startup_parameters = extra_float_digits,options",
      `logfile = ${join(dir, "pgbouncer.log")}`,
    ].join("\n"),
  );
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const child = spawn(binary, [...(asRoot ? ["-u", "postgres"] : []), join(dir, "pgbouncer.ini")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const url = new URL(postgresUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const error = await answers(url.toString());
    if (error === null) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`PgBouncer: did not answer at 127.0.0.1:${port}: ${error} ${output.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const version = execFileSync(binary, ["--version"]).toString().split("\n")[0]?.trim() ?? "PgBouncer";
  return {
    url: url.toString(),
    version,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
    kill: () => {
      child.kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
