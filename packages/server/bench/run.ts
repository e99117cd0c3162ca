import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import pino from "pino";
import { createRuntime } from "../src/app/runtime.ts";
import type { DatabaseConfig } from "../src/config/database-url.ts";
import { createApiKey } from "../src/services/api-keys/api-keys.ts";
import { createProject } from "../src/services/projects/projects.ts";
import { createWorkspace, workspaceContext } from "../src/services/workspaces/workspaces.ts";
import { findPgBouncer, startPgBouncer } from "../test/helpers/pgbouncer.ts";
import { analysisThroughput, fourEngineAnalysis, measurementCost } from "./analyses.ts";
import { analyticsBenchmarks } from "./analytics.ts";
import { type LoadOptions, type Measurement, measure, printTable } from "./measure.ts";
import { microBenchmarks } from "./micro.ts";
import { partitionedReads, partitionMove } from "./partitions.ts";
import { createScratchDatabase } from "./postgres.ts";
import { type Child, freePort, SIGHTLINE_ENTRY, spawnServer } from "./processes.ts";
import { type ScaleOutRun, scaleOutRun } from "./scale-out.ts";
import { startupBenchmark } from "./startup.ts";
import { logImportBenchmark } from "./traffic.ts";
import { webhookBenchmarks } from "./webhooks.ts";

/**
 * `npm run bench`: authenticated GET /v1/projects (20 projects) against a bare Fastify
 * hello-world measured in the same run, on SQLite and on PostgreSQL (a scratch database created
 * through --postgres, default the local server; --no-postgres leaves it out). Two reference rows
 * explain the ratio: bare Fastify sending the very same body, and Sightline's /healthz. Then the
 * cost of rate limiting and metering, and webhook delivery throughput and latency.
 * Then the analytics endpoints at 10,000 and 1,000,000 stored results (`--analytics-sizes`).
 * Then 2 API and 2 worker processes against 1 + 1 on PostgreSQL and Redis.
 * Then `npm start`'s start-up time and idle memory.
 * Then the API through PgBouncer against direct connections (`scale`).
 * `--only http|webhooks|analyses|analytics|scale-out|scale|startup|traffic` runs one part.
 */
const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    postgres: {
      type: "string",
      default: process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    },
    "no-postgres": { type: "boolean", default: false },
    // The analytics section only: leaves SQLite out (its 1,000,000 answers take minutes to grow).
    "no-sqlite": { type: "boolean", default: false },
    redis: { type: "string", default: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379" },
    only: { type: "string" },
    "analytics-sizes": { type: "string", default: "10000,1000000" },
    "webhook-pending": { type: "string", default: "10000" },
    // The scale section's partitioned results (10,000,000 take minutes to seed).
    "scale-size": { type: "string", default: "10000000" },
  },
});
const load: LoadOptions = {
  durationSeconds: Number(values.duration),
  connections: Number(values.connections),
  warmupSeconds: 3,
};

async function seed(database: DatabaseConfig): Promise<string> {
  const runtime = await createRuntime({ database }, pino({ level: "silent" }));
  try {
    const workspace = await createWorkspace(runtime.deps, { name: "Bench", plan: "agency" });
    const ctx = await workspaceContext(runtime.deps, workspace.id);
    for (let i = 0; i < 20; i++) {
      await createProject(ctx, {
        name: `Brand ${i}`,
        primary_domain: `brand${i}.example.com`,
        aliases: [`B${i}`],
        competitors: [{ name: `Rival ${i}`, domains: [`rival${i}.example.com`] }, { name: `Other ${i}` }],
        prompts: ["best crm for startups", "crm with slack integration", "cheapest crm"],
        engines: ["sandbox", "chatgpt"],
      });
    }
    return (await createApiKey(runtime.deps, { workspaceId: workspace.id, name: "bench", scopes: ["read"] })).key;
  } finally {
    await runtime.close();
  }
}

async function startSightline(databaseUrl: string, env: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  return spawnServer(
    SIGHTLINE_ENTRY,
    ["serve"],
    { DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: "warn", ...env },
    { healthUrl: `http://127.0.0.1:${port}/healthz` },
  );
}

async function redisReachable(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1_000 });
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function measureBare(name: string, env: Record<string, string>): Promise<Measurement> {
  const bare = await spawnServer("packages/server/bench/bare-fastify.ts", [], env, { stdout: /LISTENING (\S+)/ });
  try {
    return await measure(name, bare.url, {}, load);
  } finally {
    await bare.stop();
  }
}

async function withPostgres<T>(run: (url: string) => Promise<T>): Promise<T | null> {
  if (values["no-postgres"]) return null;
  const scratch = await createScratchDatabase(values.postgres);
  if (scratch === null) {
    console.log(`PostgreSQL at ${values.postgres} is unreachable: its rows are left out (pass --postgres URL).`);
    return null;
  }
  try {
    return await run(scratch.url);
  } finally {
    await scratch.drop();
  }
}

async function httpSection(dir: string, plansFile: string): Promise<boolean> {
  const redisUrl = values.redis;
  const path = join(dir, "bench.db");
  const sqliteUrl = `sqlite:${path}`;
  const key = await seed({ dialect: "sqlite", path });
  const headers = { authorization: `Bearer ${key}` };
  const env = { SIGHTLINE_PLANS: plansFile };

  const bodyFile = join(dir, "projects.json");
  const sightline = await startSightline(sqliteUrl, env);
  let list: Measurement;
  let health: Measurement;
  try {
    const body = await (await fetch(`${sightline.url}/v1/projects`, { headers })).text();
    writeFileSync(bodyFile, body);
    console.log(`GET /v1/projects answers ${body.length.toLocaleString("en-US")} bytes (20 projects).\n`);
    list = await measure("GET /v1/projects, 20 projects (SQLite)", `${sightline.url}/v1/projects`, headers, load);
    health = await measure("GET /healthz, one trivial query (SQLite)", `${sightline.url}/healthz`, {}, load);
  } finally {
    await sightline.stop();
  }
  const unlimited = await startSightline(sqliteUrl, {
    ...env,
    SIGHTLINE_RATE_LIMITS: "off",
    SIGHTLINE_REQUEST_METERING: "off",
  });
  let withoutLimits: Measurement;
  try {
    withoutLimits = await measure(
      "GET /v1/projects, no rate limit, no metering",
      `${unlimited.url}/v1/projects`,
      headers,
      load,
    );
  } finally {
    await unlimited.stop();
  }
  let withRedis: Measurement | undefined;
  const redisUp = await redisReachable(redisUrl);
  if (redisUp) {
    const shared = await startSightline(sqliteUrl, { ...env, REDIS_URL: redisUrl });
    try {
      withRedis = await measure("GET /v1/projects, rate limits in Redis", `${shared.url}/v1/projects`, headers, load);
    } finally {
      await shared.stop();
    }
  } else {
    console.log(`Redis at ${redisUrl} is unreachable: its row is left out (pass --redis URL).`);
  }
  const baseline = await measureBare("bare Fastify hello-world", {});
  const sqliteStatic = await measureBare("bare Fastify, same body as the list, static", { BODY_FILE: bodyFile });
  const rows = [baseline, sqliteStatic, health, list, withoutLimits];
  if (withRedis !== undefined) rows.push(withRedis);
  const pg = await withPostgres(async (url) => {
    const pgKey = await seed({ dialect: "postgres", url });
    const server = await startSightline(url, env);
    const pgBodyFile = join(dir, "projects-postgres.json");
    try {
      const pgHeaders = { authorization: `Bearer ${pgKey}` };
      writeFileSync(pgBodyFile, await (await fetch(`${server.url}/v1/projects`, { headers: pgHeaders })).text());
      const list = await measure(
        "GET /v1/projects, 20 projects (PostgreSQL)",
        `${server.url}/v1/projects`,
        pgHeaders,
        load,
      );
      return { list, body: pgBodyFile };
    } finally {
      await server.stop();
    }
  });
  const pgStatic =
    pg === null ? null : await measureBare("bare Fastify, the PostgreSQL list's body, static", { BODY_FILE: pg.body });
  if (pg !== null && pgStatic !== null) rows.push(pgStatic, pg.list);

  console.log("");
  printTable(rows, baseline);
  console.log(
    `\nratio, authenticated GET /v1/projects ÷ the same body served statically (SQLite): ${(list.requestsPerSecond / sqliteStatic.requestsPerSecond).toFixed(2)}`,
  );
  if (pg !== null && pgStatic !== null)
    console.log(
      `ratio, authenticated GET /v1/projects ÷ the same body served statically (PostgreSQL): ${(pg.list.requestsPerSecond / pgStatic.requestsPerSecond).toFixed(2)}`,
    );
  console.log(
    `ratio, authenticated GET /v1/projects (SQLite) ÷ bare Fastify hello-world: ${(list.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}`,
  );
  console.log(
    `with ÷ without rate limiting and metering, same route: ${(list.requestsPerSecond / withoutLimits.requestsPerSecond).toFixed(2)}` +
      (withRedis === undefined
        ? ""
        : `; with the counts in Redis: ${(withRedis.requestsPerSecond / withoutLimits.requestsPerSecond).toFixed(2)}`),
  );
  console.log("\nPer-request cost, measured directly (the HTTP rows cannot resolve a few µs):");
  for (const result of await microBenchmarks(redisUp ? redisUrl : null)) {
    console.log(`  ${result.name.padEnd(56)} ${result.microsPerOp.toFixed(2).padStart(8)} µs`);
  }
  const failed = rows.filter((row) => row.non2xx + row.errors > 0);
  if (failed.length > 0)
    console.error(`\n${failed.map((r) => r.name).join(", ")}: some responses were not 2xx; the numbers are not valid.`);
  const ratios = [list.requestsPerSecond / sqliteStatic.requestsPerSecond];
  if (pg !== null && pgStatic !== null) ratios.push(pg.list.requestsPerSecond / pgStatic.requestsPerSecond);
  return failed.length === 0 && ratios.every((ratio) => ratio >= 0.5);
}

/** One target measured several times: its mean throughput and median, its worst p99, every failure. */
function combine(rounds: Measurement[]): Measurement {
  const mean = (pick: (m: Measurement) => number) => rounds.reduce((sum, m) => sum + pick(m), 0) / rounds.length;
  return {
    name: `${rounds[0]?.name ?? ""} (${rounds.map((m) => Math.round(m.requestsPerSecond).toLocaleString("en-US")).join(" and ")})`,
    requestsPerSecond: mean((m) => m.requestsPerSecond),
    p50: mean((m) => m.p50),
    p99: Math.max(...rounds.map((m) => m.p99)),
    non2xx: rounds.reduce((sum, m) => sum + m.non2xx, 0),
    errors: rounds.reduce((sum, m) => sum + m.errors, 0),
  };
}

/**
 * Issue 30's scale figures, in one run: the API through PgBouncer in transaction mode against the
 * same database reached directly; 1,000,000 answers moved into monthly partitions while answers are
 * written; and reads over `--scale-size` answers in monthly partitions (docs/storage-at-scale.md).
 */
async function scaleSection(plansFile: string): Promise<boolean> {
  console.log("\nScale (PostgreSQL): the API through PgBouncer in transaction mode against direct connections:");
  const binary = findPgBouncer();
  if (binary === undefined) {
    console.log("  PgBouncer is not installed (apt-get install pgbouncer): its rows are left out.");
    return false;
  }
  const result = await withPostgres(async (url) => {
    const key = await seed({ dialect: "postgres", url });
    const headers = { authorization: `Bearer ${key}` };
    const env = { SIGHTLINE_PLANS: plansFile };
    const direct = await startSightline(url, env);
    try {
      const bouncer = await startPgBouncer(binary, url, await freePort());
      try {
        const pooled = await startSightline(bouncer.url, { ...env, DATABASE_DIRECT_URL: url });
        try {
          // Both servers up, measured in turn direct, pooled, pooled, direct: neither gains from
          // going first or last on a machine whose speed drifts.
          const targets = {
            direct: { name: "GET /v1/projects, direct (PostgreSQL)", url: `${direct.url}/v1/projects` },
            pooled: {
              name: `GET /v1/projects, through ${bouncer.version} (transaction mode)`,
              url: `${pooled.url}/v1/projects`,
            },
          };
          const rounds: Record<keyof typeof targets, Measurement[]> = { direct: [], pooled: [] };
          for (const which of ["direct", "pooled", "pooled", "direct"] as const) {
            rounds[which].push(await measure(targets[which].name, targets[which].url, headers, load));
          }
          return { directRow: combine(rounds.direct), pooledRow: combine(rounds.pooled) };
        } finally {
          await pooled.stop();
        }
      } finally {
        await bouncer.stop();
      }
    } finally {
      await direct.stop();
    }
  });
  if (result === null) return false;
  console.log("");
  printTable([result.directRow, result.pooledRow], result.directRow);
  const ratio = result.pooledRow.requestsPerSecond / result.directRow.requestsPerSecond;
  console.log(`ratio, authenticated GET /v1/projects through PgBouncer ÷ direct (PostgreSQL): ${ratio.toFixed(2)}`);

  const size = Number(values["scale-size"]);
  console.log(`\nAnswers in monthly partitions (PostgreSQL):`);
  const move = await withPostgres((url) => partitionMove(url, 1_000_000));
  for (const line of move ?? []) console.log(`  ${line}`);
  const reads = await withPostgres((url) => partitionedReads(url, size));
  for (const line of reads?.lines ?? []) console.log(`  ${line}`);
  const label = size.toLocaleString("en-US");
  if (reads !== null) {
    console.log(`results page p99 at ${label} results (PostgreSQL, partitioned): ${reads.p99.toFixed(1)} ms`);
    console.log(`analytics p95 at ${label} results (PostgreSQL, partitioned): ${reads.analyticsP95.toFixed(1)} ms`);
  }
  const failed = [result.directRow, result.pooledRow].some((row) => row.non2xx + row.errors > 0);
  return !failed && ratio >= 0.8 && reads !== null && reads.p99 <= 20 && reads.analyticsP95 <= 200;
}

async function analyticsSection(dir: string, plansFile: string): Promise<boolean> {
  const sizes = (values["analytics-sizes"] ?? "").split(",").map(Number);
  console.log(
    "\nAnalytics and results, 90-day range (7 engines, 50 prompts, 3 competitors, 300 URLs; one request at a time over HTTP; targets at 1,000,000: analytics p95 ≤ 200 ms, results pages p99 ≤ 20 ms):",
  );
  const path = join(dir, "analytics.db");
  const sqlite = values["no-sqlite"]
    ? null
    : await analyticsBenchmarks("SQLite", { dialect: "sqlite", path }, `sqlite:${path}`, plansFile, sizes);
  for (const line of sqlite?.lines ?? []) console.log(`  ${line}`);
  const pg = await withPostgres(async (url) => {
    const result = await analyticsBenchmarks("PostgreSQL", { dialect: "postgres", url }, url, plansFile, sizes);
    for (const line of result.lines) console.log(`  ${line}`);
    return result;
  });
  const largest = Math.max(...sizes).toLocaleString("en-US");
  if (sqlite !== null)
    console.log(`results page p99 at ${largest} results (SQLite): ${sqlite.resultsP99AtLargest.toFixed(1)} ms`);
  if (pg !== null)
    console.log(`results page p99 at ${largest} results (PostgreSQL): ${pg.resultsP99AtLargest.toFixed(1)} ms`);
  if (sqlite !== null)
    console.log(`analytics p95 at ${largest} results (SQLite): ${sqlite.worstP95AtLargest.toFixed(1)} ms`);
  if (pg !== null)
    console.log(`analytics p95 at ${largest} results (PostgreSQL): ${pg.worstP95AtLargest.toFixed(1)} ms`);
  const runs = [...(sqlite === null ? [] : [sqlite]), ...(pg === null ? [] : [pg])];
  return runs.every((run) => run.worstP95AtLargest <= 200 && run.resultsP99AtLargest <= 20);
}

async function webhookSection(dir: string, plansFile: string): Promise<boolean> {
  console.log("\nWebhooks (a local receiver on 127.0.0.1 answering 200 at once; targets ≥ 2,000/s, p99 ≤ 20 ms):");
  const pending = Number(values["webhook-pending"]);
  const path = join(dir, "webhooks.db");
  const sqlite = await webhookBenchmarks(
    "SQLite, npm start (one process)",
    { dialect: "sqlite", path },
    `sqlite:${path}`,
    plansFile,
    { pending, latencySamples: 300, separateWorker: false },
  );
  const pg = await withPostgres((url) =>
    webhookBenchmarks("PostgreSQL, API and worker processes", { dialect: "postgres", url }, url, plansFile, {
      pending,
      latencySamples: 300,
      separateWorker: true,
    }),
  );
  for (const result of [...sqlite.lines, ...(pg?.lines ?? [])])
    console.log(`  ${result.name.padEnd(58)} ${result.value}`);
  console.log(`webhook deliveries per second (SQLite): ${Math.round(sqlite.drainPerSecond)}`);
  if (pg !== null) console.log(`webhook deliveries per second (PostgreSQL): ${Math.round(pg.drainPerSecond)}`);
  const all = [sqlite, ...(pg === null ? [] : [pg])];
  return all.every((run) => run.drainPerSecond >= 2_000 && run.latencyP99 <= 20);
}

async function scaleOutSection(plansFile: string): Promise<void> {
  console.log("\nScale-out on PostgreSQL with rate limits in Redis (API and worker processes on the same two cores):");
  if (!(await redisReachable(values.redis))) {
    console.log(`  Redis at ${values.redis} is unreachable: left out (pass --redis URL).`);
    return;
  }
  const runs: ScaleOutRun[] = [];
  for (const [apis, workers] of [
    [1, 1],
    [2, 2],
  ] as const) {
    const run = await withPostgres((url) =>
      scaleOutRun({ dialect: "postgres", url }, url, values.redis, plansFile, {
        apis,
        workers,
        pending: 5_000,
        connections: load.connections,
        durationSeconds: load.durationSeconds,
      }),
    );
    if (run === null) return;
    runs.push(run);
    console.log(
      `  ${apis} API + ${workers} worker processes: GET /v1/projects ${Math.round(run.requestsPerSecond).toLocaleString("en-US")} req/s; webhook drain ${Math.round(run.deliveriesPerSecond).toLocaleString("en-US")} deliveries/s`,
    );
  }
  const [one, two] = runs;
  if (one !== undefined && two !== undefined)
    console.log(
      `scale-out ratio, 2 + 2 ÷ 1 + 1: requests ${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}, deliveries ${(two.deliveriesPerSecond / one.deliveriesPerSecond).toFixed(2)}`,
    );
}

console.log(
  `Sightline benchmark: ${load.connections} connections, ${load.durationSeconds}s per target after a ${load.warmupSeconds}s warm-up.`,
);
console.log("Servers run with LOG_LEVEL=warn (no access log); autocannon runs in this process.\n");
const dir = mkdtempSync(join(tmpdir(), "sightline-bench-"));
try {
  // The load is far above any plan's per-minute allowance: the bench's plan allows it, so that
  // rate limiting runs on every request without refusing any.
  const plansFile = join(dir, "plans.json");
  writeFileSync(plansFile, JSON.stringify({ agency: { requests_per_minute: 1_000_000_000 } }));
  if ((values.only === undefined || values.only === "http") && !(await httpSection(dir, plansFile)))
    process.exitCode = 1;
  if ((values.only === undefined || values.only === "webhooks") && !(await webhookSection(dir, plansFile)))
    process.exitCode = 1;
  if ((values.only === undefined || values.only === "analytics") && !(await analyticsSection(dir, plansFile)))
    process.exitCode = 1;
  if (values.only === undefined || values.only === "scale-out") await scaleOutSection(plansFile);
  if ((values.only === undefined || values.only === "scale") && !(await scaleSection(plansFile))) process.exitCode = 1;
  if (values.only === undefined || values.only === "startup") {
    console.log("\nStart-up:");
    for (const line of await startupBenchmark()) console.log(`  ${line}`);
  }
  if (values.only === undefined || values.only === "traffic") {
    console.log("\nAccess-log import:");
    for (const line of await logImportBenchmark(dir)) console.log(`  ${line}`);
  }
  if (values.only === undefined || values.only === "analyses") {
    console.log("\nAnalyses:");
    const pipeline = await analysisThroughput(dir);
    for (const line of [...measurementCost(), ...pipeline.lines, ...(await fourEngineAnalysis(dir))])
      console.log(`  ${line}`);
    console.log(`pipeline ratio to ideal: ${pipeline.ratio.toFixed(2)}`);
    if (pipeline.ratio > 1.05) process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
