import { Sightline, verifyWebhook } from "@sightline/sdk";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/app/runtime.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { createWorkspace } from "../../src/services/workspaces/workspaces.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";
import { type ServerProcess, startServerProcess, startWorkerProcess } from "../helpers/processes.ts";
import { Receiver } from "../helpers/receiver.ts";

/**
 * The product as a new user runs it: `sightline all` (what npm start runs), no vendor keys, the
 * public API through the SDK, a webhook receiver. Then the worker alone, kept alive with no work.
 */
describe.each(DIALECTS)("a fresh install, end to end [%s]", (dialect) => {
  let db: TestDatabase;
  let server: ServerProcess;
  let receiver: Receiver;
  let key: string;
  const env = () => ({
    DATABASE_URL: db.url,
    SIGHTLINE_SECRET_KEY: TEST_SECRET_KEY.toString("base64"),
    SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true",
  });
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    const runtime = await createRuntime(
      { database: db.config, secretKeys: [TEST_SECRET_KEY] },
      pino({ level: "silent" }),
    );
    const workspace = await createWorkspace(runtime.deps, { name: "New user", plan: "growth" });
    key = (
      await createApiKey(runtime.deps, {
        workspaceId: workspace.id,
        name: "k",
        scopes: ["projects", "analyze", "results", "webhooks"],
      })
    ).key;
    await runtime.close();
    receiver = await new Receiver().start();
    server = await startServerProcess(env());
  });
  afterAll(async () => {
    server.child.kill("SIGTERM");
    await server.exited;
    await receiver.stop();
    await db.drop();
  });

  it("analyses a brand with the sandbox within seconds and notifies the subscriber", async () => {
    const sightline = new Sightline({ apiKey: key, baseUrl: `${server.url}/v1` });
    const hook = await sightline.webhooks.create({ url: `${receiver.url}/events`, events: ["analysis.completed"] });
    const project = await sightline.projects.create({
      name: "Acme CRM",
      primary_domain: "acmecrm.com",
      competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }, { name: "Pipedrive" }],
      prompts: ["best CRM for a small agency", "CRM with the best Slack integration"],
    });
    const queued = await sightline.analyses.create({ project_id: project.id, engines: ["sandbox"] });
    const done = await sightline.analyses.wait(queued.id, { intervalMs: 100, timeoutMs: 15_000 });
    expect(done).toMatchObject({ status: "completed", progress: { total: 2, succeeded: 2 } });
    const results = await sightline.results.list({ analysis_id: done.id });
    expect(results.data).toHaveLength(2);
    // Each answer carries the web searches the engine ran, and the brand's searches add them up.
    for (const result of results.data) expect(result.searches.length).toBeGreaterThan(0);
    const searches = await sightline.projects.searches(project.id);
    expect(searches.data.find((row) => row.search === "best crm for a small agency")).toMatchObject({
      answers: 1,
      engines: { sandbox: 1 },
    });
    await receiver.waitFor(1, "/events", 15_000);
    const delivery = receiver.on("/events")[0] ?? expect.fail("no delivery");
    const event = verifyWebhook(delivery.body, delivery.headers, hook.secret);
    expect(event).toMatchObject({ type: "analysis.completed", data: { object: { id: done.id, status: "completed" } } });
  });

  it("keeps a worker process running while it has nothing to do, and stops it cleanly", async () => {
    const worker = await startWorkerProcess(env());
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(worker.child.exitCode).toBeNull();
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  });
});
