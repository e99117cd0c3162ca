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
import { type LoadOptions, type Measurement, measure, printTable } from "./measure.ts";
import { microBenchmarks } from "./micro.ts";
import { createScratchDatabase } from "./postgres.ts";
import { type Child, freePort, spawnServer } from "./processes.ts";

/**
 * `npm run bench`: authenticated GET /v1/projects (20 projects) against a bare Fastify
 * hello-world measured in the same run, on SQLite and on PostgreSQL (a scratch database created
 * through --postgres, default the local server; --no-postgres leaves it out). Two reference rows
 * explain the ratio: bare Fastify sending the very same body, and Sightline's /healthz.
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
    redis: { type: "string", default: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379" },
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
    "packages/server/src/bin/sightline.ts",
    ["serve"],
    { DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: "warn", SIGHTLINE_PLANS: plansFile, ...env },
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

console.log(
  `Sightline benchmark: ${load.connections} connections, ${load.durationSeconds}s per target after a ${load.warmupSeconds}s warm-up.`,
);
console.log("Servers run with LOG_LEVEL=warn (no access log); autocannon runs in this process.\n");

const dir = mkdtempSync(join(tmpdir(), "sightline-bench-"));
// The load is far above any plan's per-minute allowance: the bench's plan allows it, so that rate
// limiting runs on every request without refusing any.
const plansFile = join(dir, "plans.json");
writeFileSync(plansFile, JSON.stringify({ agency: { requests_per_minute: 1_000_000_000 } }));
const redisUrl = values.redis;
const rows: Measurement[] = [];
let withoutLimits: Measurement | undefined;
let withRedis: Measurement | undefined;
try {
  const path = join(dir, "bench.db");
  const sqliteUrl = `sqlite:${path}`;
  const key = await seed({ dialect: "sqlite", path });
  const headers = { authorization: `Bearer ${key}` };

  const sightline = await startSightline(sqliteUrl);
  const bodyFile = join(dir, "projects.json");
  let listMeasurement: Measurement;
  let healthMeasurement: Measurement;
  try {
    const body = await (await fetch(`${sightline.url}/v1/projects`, { headers })).text();
    writeFileSync(bodyFile, body);
    console.log(`GET /v1/projects answers ${body.length.toLocaleString("en-US")} bytes (20 projects).\n`);
    listMeasurement = await measure(
      "GET /v1/projects, 20 projects (SQLite)",
      `${sightline.url}/v1/projects`,
      headers,
      load,
    );
    healthMeasurement = await measure("GET /healthz, one trivial query (SQLite)", `${sightline.url}/healthz`, {}, load);
  } finally {
    await sightline.stop();
  }
  const bareLimits = await startSightline(sqliteUrl, {
    SIGHTLINE_RATE_LIMITS: "off",
    SIGHTLINE_REQUEST_METERING: "off",
  });
  try {
    withoutLimits = await measure(
      "GET /v1/projects, no rate limit, no metering",
      `${bareLimits.url}/v1/projects`,
      headers,
      load,
    );
  } finally {
    await bareLimits.stop();
  }
  if (await redisReachable(redisUrl)) {
    const shared = await startSightline(sqliteUrl, { REDIS_URL: redisUrl });
    try {
      withRedis = await measure("GET /v1/projects, rate limits in Redis", `${shared.url}/v1/projects`, headers, load);
    } finally {
      await shared.stop();
    }
  } else {
    console.log(`Redis at ${redisUrl} is unreachable: its row is left out (pass --redis URL).`);
  }
  rows.push(await measureBare("bare Fastify hello-world", {}));
  rows.push(await measureBare("bare Fastify, same body as the list, static", { BODY_FILE: bodyFile }));
  rows.push(healthMeasurement, listMeasurement, withoutLimits);
  if (withRedis !== undefined) rows.push(withRedis);

  if (!values["no-postgres"]) {
    const scratch = await createScratchDatabase(values.postgres);
    if (scratch === null) {
      console.log(`PostgreSQL at ${values.postgres} is unreachable: its row is left out (pass --postgres URL).`);
    } else {
      try {
        const pgKey = await seed({ dialect: "postgres", url: scratch.url });
        const server = await startSightline(scratch.url);
        try {
          rows.push(
            await measure(
              "GET /v1/projects, 20 projects (PostgreSQL)",
              `${server.url}/v1/projects`,
              { authorization: `Bearer ${pgKey}` },
              load,
            ),
          );
        } finally {
          await server.stop();
        }
      } finally {
        await scratch.drop();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const [baseline] = rows;
if (baseline === undefined) throw new Error("no baseline measured");
printTable(rows, baseline);
const list = rows.find((row) => row.name.startsWith("GET /v1/projects"));
if (list !== undefined) {
  console.log(
    `\nratio, authenticated GET /v1/projects (SQLite) ÷ bare Fastify hello-world: ${(list.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}`,
  );
}
if (list !== undefined && withoutLimits !== undefined) {
  console.log(
    `with ÷ without rate limiting and metering, same route: ${(list.requestsPerSecond / withoutLimits.requestsPerSecond).toFixed(2)}` +
      (withRedis === undefined
        ? ""
        : `; with the counts in Redis: ${(withRedis.requestsPerSecond / withoutLimits.requestsPerSecond).toFixed(2)}`),
  );
}
console.log("\nPer-request cost, measured directly (the HTTP rows cannot resolve a few µs):");
for (const result of await microBenchmarks((await redisReachable(redisUrl)) ? redisUrl : null)) {
  console.log(`  ${result.name.padEnd(56)} ${result.microsPerOp.toFixed(2).padStart(8)} µs`);
}
const failed = rows.filter((row) => row.non2xx + row.errors > 0);
if (failed.length > 0) {
  console.error(`\n${failed.map((r) => r.name).join(", ")}: some responses were not 2xx; the numbers are not valid.`);
  process.exitCode = 1;
}
