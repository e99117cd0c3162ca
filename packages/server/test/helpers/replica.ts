import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./processes.ts";

/** Where Debian keeps the server's binaries (initdb, pg_ctl, pg_basebackup), newest version first. */
function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  const version = versions[0];
  if (version === undefined) throw new Error(`no PostgreSQL server binaries under ${root}`);
  return join(root, version, "bin");
}

export interface StreamingPair {
  /** The primary's server (database `postgres`), as a URL. */
  primaryUrl: string;
  /** The hot standby streaming from it. */
  replicaUrl: string;
  stop(): Promise<void>;
}

/**
 * A real primary and a real hot standby streaming from it, started from Debian's PostgreSQL
 * binaries in a folder of their own (initdb, pg_basebackup -R, pg_ctl): what a managed service's
 * read replica is. Both on 127.0.0.1, trust auth; as root they run as the postgres user, as the
 * server refuses root.
 */
export async function startStreamingPair(): Promise<StreamingPair> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "sightline-replica-"));
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? {
        uid: Number(execFileSync("id", ["-u", "postgres"]).toString().trim()),
        gid: Number(execFileSync("id", ["-g", "postgres"]).toString().trim()),
      }
    : null;
  if (owner !== null) chownSync(dir, owner.uid, owner.gid);
  const run = (command: string, args: string[]) =>
    execFileSync(join(bin, command), args, {
      stdio: "pipe",
      ...(owner === null ? {} : { uid: owner.uid, gid: owner.gid }),
      env: { ...process.env, LC_ALL: "C.UTF-8" },
    });
  const primary = join(dir, "primary");
  const replica = join(dir, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  run("initdb", ["-D", primary, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  appendFileSync(`${primary}/pg_hba.conf`, "host replication all 127.0.0.1/32 trust\n");
  appendFileSync(
    `${primary}/postgresql.conf`,
    [
      `port = ${primaryPort}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      "wal_level = replica",
      "max_wal_senders = 4",
      "hot_standby = on",
      "fsync = off",
      "max_connections = 200",
      "",
    ].join("\n"),
  );
  const started: string[] = [];
  const stop = async () => {
    for (const data of started.reverse()) {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run("pg_ctl", ["-D", primary, "-l", join(dir, "primary.log"), "-w", "start"]);
    started.push(primary);
    run("pg_basebackup", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primaryPort),
      "-U",
      "postgres",
      "-D",
      replica,
      "-R",
      "-X",
      "stream",
    ]);
    appendFileSync(`${replica}/postgresql.auto.conf`, `port = ${replicaPort}\n`);
    run("pg_ctl", ["-D", replica, "-l", join(dir, "replica.log"), "-w", "start"]);
    started.push(replica);
  } catch (error) {
    await stop();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    throw new Error(`could not start a streaming replica: ${(error as Error).message} ${stderr}`);
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/postgres`,
    stop,
  };
}
