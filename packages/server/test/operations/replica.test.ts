import type { FastifyInstance } from "fastify";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { type RunningWorker, startWorker } from "../../src/app/worker.ts";
import { buildHttpApp } from "../../src/http/app.ts";
import { databaseReads } from "../../src/lib/metrics.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { createWorkspace } from "../../src/services/workspaces/workspaces.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";
import { type StreamingPair, startStreamingPair } from "../helpers/replica.ts";

async function reads(target: "primary" | "replica"): Promise<number> {
  const metric = await databaseReads.get();
  return metric.values.find((value) => value.labels.target === target)?.value ?? 0;
}

/**
 * DATABASE_REPLICA_URL against a real streaming replica (a primary and a hot standby started from
 * the PostgreSQL binaries): the reading routes go to the replica when it has caught up, and a
 * client reading right after its own write sees it even when the replica has stopped replaying.
 */
describe("reads from a streaming replica [postgres]", () => {
  let pair: StreamingPair;
  let runtime: Runtime;
  let app: FastifyInstance;
  let worker: RunningWorker;
  let key: string;
  let replicaAdmin: pg.Client;

  beforeAll(async () => {
    pair = await startStreamingPair();
    const admin = new pg.Client({ connectionString: pair.primaryUrl });
    await admin.connect();
    await admin.query("create database sightline");
    await admin.end();
    const url = (base: string) => {
      const u = new URL(base);
      u.pathname = "/sightline";
      return u.toString();
    };
    runtime = await createRuntime(
      {
        database: { dialect: "postgres", url: url(pair.primaryUrl) },
        replicaDatabaseUrl: url(pair.replicaUrl),
        secretKeys: [TEST_SECRET_KEY],
      },
      pino({ level: "silent" }),
    );
    app = await buildHttpApp(runtime.deps, {
      publicUrl: "http://localhost:8080",
      bodyLimitBytes: 1024 * 1024,
      logger: pino({ level: "silent" }),
    });
    worker = await startWorker(runtime, url(pair.primaryUrl), pino({ level: "silent" }), {
      scheduler: false,
      pollIntervalMs: 50,
    });
    const workspace = await createWorkspace(runtime.deps, { name: "Replica", plan: "agency" });
    key = (
      await createApiKey(runtime.deps, {
        workspaceId: workspace.id,
        name: "k",
        scopes: ["projects", "analyze", "results", "reports"],
      })
    ).key;
    replicaAdmin = new pg.Client({ connectionString: url(pair.replicaUrl) });
    await replicaAdmin.connect();
  }, 60_000);
  afterAll(async () => {
    await replicaAdmin?.end();
    await worker?.stop(1_000);
    await app?.close();
    await runtime?.close();
    await pair?.stop();
  });

  const call = async (method: "GET" | "POST", url: string, payload?: unknown) => {
    const response = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, host: "localhost:8080" },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, json: response.json() as Record<string, unknown> };
  };

  async function brandWithAnswers(name: string): Promise<{ project: string; analysis: string }> {
    const project = await call("POST", "/v1/projects", {
      name,
      primary_domain: `${name.toLowerCase().replace(/\W/g, "")}.com`,
      prompts: ["best crm for startups", "crm with the best api"],
      engines: ["sandbox"],
    });
    expect(project.status).toBe(201);
    const analysis = await call("POST", "/v1/analyze", { project_id: project.json.id, wait: true });
    expect(analysis.json.status).toBe("completed");
    return { project: String(project.json.id), analysis: String(analysis.json.id) };
  }

  it("serves analytics, results and reports from the caught-up replica, each read seeing what was just written", async () => {
    const { project, analysis } = await brandWithAnswers("Acme CRM");
    const before = await reads("replica");
    // Read right after the writes: the replica has replayed them within the wait, so it answers.
    const results = await call("GET", `/v1/results?analysis_id=${analysis}`);
    expect(results.status).toBe(200);
    expect(results.json.data).toHaveLength(2);
    const metrics = await call("GET", `/v1/projects/${project}/metrics`);
    expect(metrics.status).toBe(200);
    const reports = await call("GET", `/v1/reports?project_id=${project}`);
    expect(reports.status).toBe(200);
    expect(await reads("replica")).toBe(before + 3);
    // Those rows really are on the replica.
    const onReplica = await replicaAdmin.query("select count(*)::int as n from results where analysis_id = $1", [
      analysis,
    ]);
    expect(onReplica.rows[0].n).toBe(2);
  });

  it("reads from the primary while the replica lags, so a client still sees its own write, and the replica again once it catches up", async () => {
    await replicaAdmin.query("select pg_wal_replay_pause()");
    try {
      const { project, analysis } = await brandWithAnswers("Lagging CRM");
      // The replica has not replayed them: it knows neither the brand nor its answers.
      const missing = await replicaAdmin.query("select count(*)::int as n from projects where id = $1", [project]);
      expect(missing.rows[0].n).toBe(0);
      const primaryBefore = await reads("primary");
      const results = await call("GET", `/v1/results?analysis_id=${analysis}`);
      expect(results.status).toBe(200);
      expect(results.json.data).toHaveLength(2);
      const metrics = await call("GET", `/v1/projects/${project}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await reads("primary")).toBe(primaryBefore + 2);
    } finally {
      await replicaAdmin.query("select pg_wal_replay_resume()");
    }
    const replicaBefore = await reads("replica");
    const again = await call("GET", "/v1/results?limit=5");
    expect(again.status).toBe(200);
    expect(await reads("replica")).toBe(replicaBefore + 1);
  });

  it("reads the read cache's versions and every write path from the primary", async () => {
    // Projects are cached by version (read from the primary); a list right after a create shows it
    // even with the replica paused.
    await replicaAdmin.query("select pg_wal_replay_pause()");
    try {
      const created = await call("POST", "/v1/projects", { name: "Fresh", primary_domain: "fresh.example.com" });
      expect(created.status).toBe(201);
      const listed = await call("GET", "/v1/projects?limit=100");
      expect((listed.json.data as { id: string }[]).map((p) => p.id)).toContain(created.json.id);
    } finally {
      await replicaAdmin.query("select pg_wal_replay_resume()");
    }
  });
});
