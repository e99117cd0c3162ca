import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { createEndpoint } from "../../src/services/webhooks/endpoints.ts";
import { createWorkspace, workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";
import { startWorkerProcess } from "../helpers/processes.ts";
import { Receiver } from "../helpers/receiver.ts";

const EVENTS = 1_000;

describe.each(DIALECTS)("webhook delivery survives a killed worker [%s]", (dialect) => {
  let db: TestDatabase;
  let runtime: Runtime;
  let receiver: Receiver;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    runtime = await createRuntime(
      { database: db.config, secretKeys: [TEST_SECRET_KEY], webhookAllowPrivate: true },
      pino({ level: "silent" }),
    );
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await runtime.close();
    await db.drop();
  });

  it("delivers every one of 1,000 pending events at least once after a SIGKILL mid-delivery; duplicates share their X-Webhook-Id", async () => {
    const workspace = await createWorkspace(runtime.deps, { name: "Crash", plan: "agency" });
    const ctx = await workspaceContext(runtime.deps, workspace.id);
    await createEndpoint(ctx, { url: `${receiver.url}/crash`, events: ["project.created"] });
    // 1,000 events pending before any worker runs.
    for (let i = 0; i < EVENTS; i++) {
      await createProject(ctx, { name: `Brand ${i}`, primary_domain: `brand${i}.example.com` });
    }
    const events = await runtime.deps.db
      .selectFrom("events")
      .select("id")
      .where("workspace_id", "=", workspace.id)
      .execute();
    expect(events).toHaveLength(EVENTS);

    const env = {
      DATABASE_URL: db.url,
      SIGHTLINE_SECRET_KEY: TEST_SECRET_KEY.toString("base64"),
      SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true",
      SIGHTLINE_JOB_LEASE_SECONDS: "2",
      SIGHTLINE_JOB_POLL_MS: "100",
      SIGHTLINE_WORKER_CONCURRENCY: "16",
    };
    // The receiver is slow, so that deliveries are in flight when the worker dies.
    receiver.answer({ status: 200, delayMs: 20 });
    const first = await startWorkerProcess(env);
    await receiver.waitFor(150, "/crash", 30_000);
    first.child.kill("SIGKILL");
    expect(await first.exited).toBeNull(); // killed, not exited
    const deliveredBeforeKill = new Set(receiver.on("/crash").map((r) => r.headers["x-webhook-id"]));
    expect(deliveredBeforeKill.size).toBeLessThan(EVENTS);

    const second = await startWorkerProcess(env);
    try {
      const deadline = Date.now() + 60_000;
      const ids = () => new Set(receiver.on("/crash").map((r) => String(r.headers["x-webhook-id"])));
      while (ids().size < EVENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const received = receiver.on("/crash");
      const distinct = ids();
      expect(distinct.size).toBe(EVENTS);
      expect([...distinct].sort()).toEqual(events.map((e) => e.id).sort());
      // A duplicate is the same event again: every request with an id carries that event, byte for byte.
      const bodies = new Map<string, Set<string>>();
      for (const request of received) {
        const id = String(request.headers["x-webhook-id"]);
        expect(JSON.parse(request.body).id).toBe(id);
        bodies.set(id, (bodies.get(id) ?? new Set()).add(request.body));
      }
      for (const [id, seen] of bodies) expect(seen.size, id).toBe(1);
      console.log(
        `[${dialect}] ${received.length} requests for ${EVENTS} events (${received.length - EVENTS} duplicates), ${deliveredBeforeKill.size} before the kill`,
      );
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  }, 120_000);
});
