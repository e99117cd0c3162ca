import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { loadConfig } from "../../src/config/config.ts";
import { createAnalysis } from "../../src/services/analyses/create.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { getUsage } from "../../src/services/usage/usage.ts";
import { UNFINISHED_ATTEMPT } from "../../src/services/webhooks/deliver.ts";
import { createEndpoint } from "../../src/services/webhooks/endpoints.ts";
import { createWorkspace, workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { startFakeOpenAIResponses } from "../helpers/fake-vendors/index.ts";
import type { FakeOpenAIResponses } from "../helpers/fake-vendors/openai-responses.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";
import { type ServerProcess, startWorkerProcess } from "../helpers/processes.ts";
import { Receiver } from "../helpers/receiver.ts";

const EVENTS = 200;
const ANALYSES = 3;
const PROMPTS = ["best crm for startups", "crm with the best api", "cheapest crm for agencies"];

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A worker killed (SIGKILL, a real child process) while it holds analyses waiting on their vendor
 * and a batch of webhook deliveries waiting on their receiver, with the production lease and poll
 * interval: another worker finishes all of it within 10 s of the kill, nothing is lost or counted
 * twice, and every request that reached the receiver is in the delivery log.
 */
describe.each(DIALECTS)("a killed worker's jobs are taken within 10 s [%s]", (dialect) => {
  let db: TestDatabase;
  let runtime: Runtime;
  let receiver: Receiver;
  let vendor: FakeOpenAIResponses;
  let env: Record<string, string>;
  const workers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    receiver = await new Receiver().start();
    vendor = await startFakeOpenAIResponses();
    env = {
      DATABASE_URL: db.url,
      SIGHTLINE_SECRET_KEY: TEST_SECRET_KEY.toString("base64"),
      SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true",
      OPENAI_API_KEY: "sk-test-kill",
      OPENAI_BASE_URL: vendor.url,
    };
    runtime = await createRuntime(loadConfig(env), pino({ level: "silent" }));
  });
  afterAll(async () => {
    for (const worker of workers) {
      worker.child.kill("SIGKILL");
      await worker.exited;
    }
    await runtime.close();
    await vendor.stop();
    await receiver.stop();
    await db.drop();
  });

  it("finishes the analyses and deliveries of a worker killed mid-flight, each once, with every attempt in the log", async () => {
    const workspace = await createWorkspace(runtime.deps, { name: "Kill", plan: "agency" });
    const ctx: ServiceContext = await workspaceContext(runtime.deps, workspace.id);
    const hook = await createEndpoint(ctx, { url: `${receiver.url}/kill`, events: ["project.created"] });
    const project = await createProject(ctx, {
      name: "Acme CRM",
      primary_domain: "acmecrm.com",
      prompts: PROMPTS,
      engines: ["chatgpt"],
    });
    for (let i = 0; i < EVENTS; i++) {
      await createProject(ctx, { name: `Brand ${i}`, primary_domain: `brand${i}.example.com` });
    }
    const analyses = [];
    for (let i = 0; i < ANALYSES; i++) analyses.push(await createAnalysis(ctx, { project_id: project.id }));

    // The vendor and the receiver hold every request: the first worker is mid-flight on all of it.
    vendor.script("hang");
    receiver.answer({ status: 200, delayMs: 30_000 });
    const first = await startWorkerProcess(env);
    workers.push(first);
    // The transport keeps 16 connections per receiver: 16 attempts are at the receiver, the rest
    // of the batch waits for a connection.
    await receiver.waitFor(16, "/kill", 10_000);
    await until("every analysis to ask its vendor", () => vendor.requests.length >= ANALYSES, 30_000);
    // A second worker, started while the first holds everything, finds nothing to take.
    const second = await startWorkerProcess(env);
    workers.push(second);

    vendor.script("ok");
    receiver.answer({ status: 200 });
    const killedAt = Date.now();
    first.child.kill("SIGKILL");
    expect(await first.exited).toBeNull(); // killed, not exited
    const reachedBeforeKill = receiver.on("/kill").length;

    const finished = async () => {
      const open = await runtime.deps.db
        .selectFrom("analyses")
        .select("id")
        .where("workspace_id", "=", workspace.id)
        .where("status", "!=", "completed")
        .execute();
      const pending = await runtime.deps.db
        .selectFrom("webhook_deliveries")
        .select("id")
        .where("endpoint_id", "=", hook.id)
        .where("status", "!=", "succeeded")
        .execute();
      return open.length === 0 && pending.length === 0;
    };
    await until("the second worker to finish the first's jobs", finished, 30_000);
    const tookMs = Date.now() - killedAt;

    console.log(
      `[${dialect}] a killed worker's ${ANALYSES} analyses and ${EVENTS + 1} deliveries done ${tookMs} ms after the kill`,
    );
    expect(tookMs).toBeLessThanOrEqual(10_000);

    // Every answer once: prompts × analyses, one credit each, none counted twice.
    const results = await runtime.deps.db
      .selectFrom("results")
      .select(["analysis_id", "prompt_index", "engine", "sample", "status"])
      .where("workspace_id", "=", workspace.id)
      .execute();
    expect(results).toHaveLength(ANALYSES * PROMPTS.length);
    expect(new Set(results.map((r) => `${r.analysis_id}/${r.prompt_index}/${r.engine}/${r.sample}`)).size).toBe(
      ANALYSES * PROMPTS.length,
    );
    expect(results.every((r) => r.status === "succeeded")).toBe(true);
    expect((await getUsage(ctx, null)).credits.used).toBe(ANALYSES * PROMPTS.length);

    // Every event delivered (at least once, with its stable id).
    const events = await runtime.deps.db
      .selectFrom("events")
      .select("id")
      .where("workspace_id", "=", workspace.id)
      .where("type", "=", "project.created")
      .execute();
    const received = receiver.on("/kill");
    expect(new Set(received.map((r) => String(r.headers["x-webhook-id"])))).toEqual(new Set(events.map((e) => e.id)));

    // Every request that reached the receiver is in the log, under its delivery and attempt number;
    // those the killed worker sent say that no answer was recorded.
    const attempts = await runtime.deps.db
      .selectFrom("webhook_attempts")
      .innerJoin("webhook_deliveries", "webhook_deliveries.id", "webhook_attempts.delivery_id")
      .select(["webhook_attempts.delivery_id", "webhook_attempts.attempt", "webhook_attempts.error"])
      .where("webhook_deliveries.endpoint_id", "=", hook.id)
      .execute();
    const logged = new Map(attempts.map((a) => [`${a.delivery_id}#${a.attempt}`, a.error]));
    expect(received.length).toBeGreaterThanOrEqual(EVENTS + reachedBeforeKill);
    for (const request of received) {
      const key = `${String(request.headers["x-webhook-delivery"])}#${String(request.headers["x-webhook-attempt"])}`;
      expect(logged.has(key), key).toBe(true);
    }
    const unfinished = attempts.filter((a) => a.error === UNFINISHED_ATTEMPT).length;
    expect(unfinished).toBeGreaterThanOrEqual(reachedBeforeKill);
    expect(attempts.length - unfinished).toBe(received.length - reachedBeforeKill);
    console.log(
      `[${dialect}] ${reachedBeforeKill} attempts reached the receiver before the kill; ${unfinished} logged without an answer; ${received.length} requests, ${attempts.length} attempts logged`,
    );
  }, 120_000);
});
