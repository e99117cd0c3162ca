import { createHmac } from "node:crypto";
import { verifyWebhook } from "@sightline/sdk";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningWorker, webhookTransport } from "../../src/app/worker.ts";
import { createProject, updateProject } from "../../src/services/projects/projects.ts";
import { deliverWebhooks, UNFINISHED_ATTEMPT } from "../../src/services/webhooks/deliver.ts";
import { listDeliveries } from "../../src/services/webhooks/deliveries.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { Receiver } from "../helpers/receiver.ts";

/** `count` attempts in the log, every one with its outcome recorded (an attempt is logged before it is sent). */
function recorded(attempts: { error: string | null }[] | undefined, count: number): boolean {
  return attempts?.length === count && attempts.every((attempt) => attempt.error !== UNFINISHED_ATTEMPT);
}

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function subscribe(h: Harness, t: Tenant, url: string, events = ["project.created", "project.updated"]) {
  const res = await h.call("createWebhook", { key: t.key, body: { url, events } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

async function addProject(h: Harness, t: Tenant, name = "Acme") {
  const ctx = await workspaceContext(h.deps, t.workspace.id);
  return createProject(ctx, { name, primary_domain: "acme.com" });
}

/** Through the service: polling through the API would spend the tenant's rate limit. */
async function deliveries(h: Harness, t: Tenant, endpointId: string) {
  const page = await listDeliveries(await workspaceContext(h.deps, t.workspace.id), endpointId, { limit: 100 });
  return page.data;
}

/** Waits until no delivery job is running: its outcome (and next run time) is then recorded. */
async function settled(h: Harness): Promise<void> {
  await eventually(
    () => h.deps.db.selectFrom("jobs").select("id").where("status", "=", "running").execute(),
    (running) => running.length === 0,
  );
}

describeEachDialect(
  "webhook deliveries to a real receiver",
  (h) => {
    let receiver: Receiver;
    let worker: RunningWorker;
    beforeAll(async () => {
      receiver = await new Receiver().start();
      worker = await h.startWorker();
    });
    afterAll(async () => {
      await worker.stop(1_000);
      await receiver.stop();
    });

    it("signs each delivery so that an independent HMAC and the SDK both verify it", async () => {
      const t = await h.tenant();
      const hook = await subscribe(h, t, `${receiver.url}/signed`);
      expect(hook.secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
      const project = await addProject(h, t);
      await receiver.waitFor(1, "/signed");
      const delivery = receiver.on("/signed")[0] ?? expect.fail("nothing received");

      const timestamp = String(delivery.headers["x-webhook-timestamp"]);
      const expected = createHmac("sha256", hook.secret).update(`${timestamp}.${delivery.body}`).digest("hex");
      expect(delivery.headers["x-webhook-signature"]).toBe(expected);
      expect(delivery.headers["x-webhook-event"]).toBe("project.created");
      expect(delivery.headers["content-type"]).toBe("application/json");
      const body = JSON.parse(delivery.body);
      expect(body).toMatchObject({
        type: "project.created",
        workspace_id: t.workspace.id,
        data: { object: { id: project.id } },
      });
      expect(delivery.headers["x-webhook-id"]).toBe(body.id);

      const now = Number(timestamp) * 1000;
      const event = verifyWebhook(delivery.body, delivery.headers, hook.secret, { now });
      expect(event.id).toBe(body.id);
      expect(() => verifyWebhook(delivery.body, delivery.headers, "whsec_wrong", { now })).toThrow(/signature/);
      expect(() => verifyWebhook(`${delivery.body} `, delivery.headers, hook.secret, { now })).toThrow(/signature/);
      expect(() => verifyWebhook(delivery.body, delivery.headers, hook.secret, { now: now + 301_000 })).toThrow(
        /timestamp/,
      );

      const [record] = await eventually(
        () => deliveries(h, t, hook.id),
        (list) => list[0]?.status === "succeeded",
      );
      expect(record?.attempts).toMatchObject([{ attempt: 1, status_code: 200, error: null, response_excerpt: "ok" }]);
    });

    it("retries a receiver answering 500 and delivers the same X-Webhook-Id once it answers 200", async () => {
      const t = await h.tenant();
      const hook = await subscribe(h, t, `${receiver.url}/flaky`);
      receiver.answer({ status: 500, body: "boom" }, { status: 200 });
      await addProject(h, t);
      await receiver.waitFor(1, "/flaky");
      const [pending] = await eventually(
        () => deliveries(h, t, hook.id),
        (list) => recorded(list[0]?.attempts, 1) && list[0]?.next_attempt_at !== null,
      );
      expect(pending?.status).toBe("pending");
      expect(pending?.attempts[0]).toMatchObject({ status_code: 500, error: "HTTP 500", response_excerpt: "boom" });
      await settled(h);
      // The second attempt is due about 5 s later: move the clock there and wake the worker.
      h.clock.advance(7_000);
      h.deps.jobSignal.wake();
      await receiver.waitFor(2, "/flaky");
      const [first, second] = receiver.on("/flaky");
      expect(second?.headers["x-webhook-id"]).toBe(first?.headers["x-webhook-id"]);
      expect(second?.headers["x-webhook-attempt"]).toBe("2");
      expect(second?.body).toBe(first?.body);
      await eventually(
        () => deliveries(h, t, hook.id),
        (list) => list[0]?.status === "succeeded" && list[0]?.attempt_count === 2,
      );
      receiver.answer({ status: 200 });
    });

    it("turns a subscription off when its receiver answers 410 Gone", async () => {
      const t = await h.tenant();
      const hook = await subscribe(h, t, `${receiver.url}/gone`);
      receiver.answer({ status: 410 });
      const project = await addProject(h, t);
      await receiver.waitFor(1, "/gone");
      const endpoint = await eventually(
        async () => (await h.call("getWebhook", { key: t.key, params: { id: hook.id } })).json(),
        (e) => e.active === false,
      );
      expect(endpoint.disabled_reason).toContain("410");
      expect((await deliveries(h, t, hook.id))[0]?.status).toBe("failed");
      receiver.answer({ status: 200 });
      // Nothing more is sent to it.
      await updateProject(await workspaceContext(h.deps, t.workspace.id), project.id, { name: "Renamed" });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.on("/gone")).toHaveLength(1);
      expect(await deliveries(h, t, hook.id)).toHaveLength(1);
      // Turning it on again clears the reason.
      const on = await h.call("updateWebhook", { key: t.key, params: { id: hook.id }, body: { active: true } });
      expect(on.json()).toMatchObject({ active: true, disabled_reason: null });
    });

    it("counts a redirect as a failure and does not follow it", async () => {
      const t = await h.tenant();
      const hook = await subscribe(h, t, `${receiver.url}/moved`);
      receiver.answer({ status: 302, headers: { location: `${receiver.url}/elsewhere` } });
      await addProject(h, t);
      await receiver.waitFor(1, "/moved");
      const [record] = await eventually(
        () => deliveries(h, t, hook.id),
        (list) => recorded(list[0]?.attempts, 1),
      );
      expect(record?.status).toBe("pending");
      expect(record?.attempts[0]).toMatchObject({ status_code: 302, error: "HTTP 302" });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.on("/moved")).toHaveLength(1);
      expect(receiver.on("/elsewhere")).toHaveLength(0);
      receiver.answer({ status: 200 });
    });

    it("gives up after the last scheduled attempt and marks the delivery failed", async () => {
      const t = await h.tenant();
      const hook = await subscribe(h, t, `${receiver.url}/down`);
      receiver.answer({ status: 503 });
      await addProject(h, t);
      for (let attempt = 1; attempt <= 9; attempt++) {
        await receiver.waitFor(attempt, "/down");
        await eventually(
          () => deliveries(h, t, hook.id),
          (list) => recorded(list[0]?.attempts, attempt) && (attempt === 9 || list[0]?.next_attempt_at !== null),
        );
        await settled(h);
        h.clock.advance(30 * 3_600_000); // past the longest step of the schedule
        h.deps.jobSignal.wake();
      }
      const [record] = await eventually(
        () => deliveries(h, t, hook.id),
        (list) => list[0]?.status === "failed",
      );
      expect(record?.attempt_count).toBe(9);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.on("/down")).toHaveLength(9);
      receiver.answer({ status: 200 });
    });

    it("does not let manual resends use up a failing delivery's retry schedule", async () => {
      const t = await h.tenant();
      const hook = await subscribe(h, t, `${receiver.url}/manual`);
      receiver.answer({ status: 503 });
      try {
        await addProject(h, t);
        // The attempt is logged before its retry is scheduled: wait for the schedule, not the log
        // (until then next_attempt_at still holds the fan-out's "now").
        const [first] = await eventually(
          () => deliveries(h, t, hook.id),
          (list) =>
            recorded(list[0]?.attempts, 1) && Date.parse(list[0]?.next_attempt_at ?? "") > h.clock.now().getTime(),
        );
        for (let resend = 1; resend <= 3; resend++) {
          await h.call("redeliverWebhook", { key: t.key, params: { id: hook.id, delivery_id: first?.id ?? "" } });
          await eventually(
            () => deliveries(h, t, hook.id),
            (list) => recorded(list[0]?.attempts, 1 + resend),
          );
        }
        await settled(h);
        const [afterResends] = await deliveries(h, t, hook.id);
        expect(afterResends).toMatchObject({
          status: "pending",
          attempt_count: 4,
          next_attempt_at: first?.next_attempt_at,
        });

        // The second scheduled attempt (5 s later) fails too: the next one is the schedule's third
        // step (5 min ± 20%), not the sixth.
        h.clock.advance(10_000);
        h.deps.jobSignal.wake();
        const [afterRetry] = await eventually(
          () => deliveries(h, t, hook.id),
          (list) => recorded(list[0]?.attempts, 5) && list[0]?.next_attempt_at !== afterResends?.next_attempt_at,
        );
        const wait = Date.parse(afterRetry?.next_attempt_at ?? "") - h.clock.now().getTime();
        expect(wait).toBeGreaterThanOrEqual(240_000);
        expect(wait).toBeLessThanOrEqual(360_000);
      } finally {
        receiver.answer({ status: 200 });
      }
    });

    it("sends many deliveries over a few kept-alive connections, each delivery once", async () => {
      const t = await h.tenant();
      const hook = await subscribe(h, t, `${receiver.url}/many`, ["project.created"]);
      for (let i = 0; i < 60; i++) await addProject(h, t, `Brand ${i}`);
      await receiver.waitFor(60, "/many");
      const received = receiver.on("/many");
      const ids = received.map((r) => String(r.headers["x-webhook-id"]));
      expect(new Set(ids).size).toBe(60);
      // One connection per delivery would show 60 client ports; the transport keeps at most 16 open.
      const ports = new Set(received.map((r) => r.remotePort));
      expect(ports.size).toBeLessThanOrEqual(16);
      await settled(h);
      const list = await deliveries(h, t, hook.id);
      expect(list.map((d) => d.status)).toEqual(new Array(60).fill("succeeded"));
    });

    it("numbers a manual resend and a scheduled retry claimed in one batch as two attempts", async () => {
      const t = await h.tenant();
      const hook = await subscribe(h, t, `${receiver.url}/twice`, ["project.created"]);
      receiver.answer({ status: 503 });
      try {
        await addProject(h, t);
        const [first] = await eventually(
          () => deliveries(h, t, hook.id),
          (list) =>
            recorded(list[0]?.attempts, 1) && Date.parse(list[0]?.next_attempt_at ?? "") > h.clock.now().getTime(),
        );
        const deliveryId = first?.id ?? expect.fail("no delivery");
        const job = (attempt: number, payload: Record<string, unknown>) => ({
          id: `job_batch_${attempt}`,
          kind: "webhook.deliver",
          payload,
          attempt,
          maxAttempts: 14,
          createdAt: h.clock.now().toISOString(),
        });
        const transport = webhookTransport(h.runtime);
        const outcomes = await deliverWebhooks(h.deps, transport)
          .run([job(1, { delivery_id: deliveryId, manual: true }), job(2, { delivery_id: deliveryId })])
          .finally(() => transport.close?.());
        // The manual resend changes nothing; the scheduled one asks for the schedule's third step.
        expect(outcomes[0]).toEqual({ status: "succeeded" });
        expect(outcomes[1]).toMatchObject({ status: "retry", error: "HTTP 503" });
        const numbers = receiver.on("/twice").map((r) => r.headers["x-webhook-attempt"]);
        expect(numbers).toEqual(["1", "2", "3"]);
        const [after] = await deliveries(h, t, hook.id);
        expect(after?.attempt_count).toBe(3);
        expect(after?.attempts.map((a) => a.attempt).sort()).toEqual([1, 2, 3]);
      } finally {
        receiver.answer({ status: 200 });
      }
    });

    it("marks a delivery failed, not pending forever, when its secret cannot be decrypted", async () => {
      const t = await h.tenant();
      const hook = await subscribe(h, t, `${receiver.url}/undecryptable`);
      // As if the server's secret key had changed since the subscription was made.
      await h.deps.db
        .updateTable("webhook_endpoints")
        .set({ secret_ciphertext: "v1:not-a-ciphertext" })
        .where("id", "=", hook.id)
        .execute();
      await addProject(h, t);
      const [record] = await eventually(
        () => deliveries(h, t, hook.id),
        (list) => list[0]?.status === "failed",
      );
      expect(record).toMatchObject({ attempt_count: 0, next_attempt_at: null });
      expect(receiver.on("/undecryptable")).toHaveLength(0);
    });

    it("resends a delivery on request, with the same X-Webhook-Id", async () => {
      const t = await h.tenant();
      const hook = await subscribe(h, t, `${receiver.url}/again`);
      await addProject(h, t);
      await receiver.waitFor(1, "/again");
      const [record] = await eventually(
        () => deliveries(h, t, hook.id),
        (list) => list[0]?.status === "succeeded",
      );
      const res = await h.call("redeliverWebhook", {
        key: t.key,
        params: { id: hook.id, delivery_id: record?.id ?? "" },
      });
      expect(res.statusCode).toBe(202);
      await receiver.waitFor(2, "/again");
      const [first, second] = receiver.on("/again");
      expect(second?.headers["x-webhook-id"]).toBe(first?.headers["x-webhook-id"]);
      await eventually(
        () => deliveries(h, t, hook.id),
        (list) => list[0]?.attempt_count === 2,
      );
    });

    it("sends only the kinds a subscription asked for, and nothing to inactive or deleted ones", async () => {
      const t = await h.tenant();
      const onlyUpdates = await subscribe(h, t, `${receiver.url}/updates`, ["project.updated"]);
      const inactive = await subscribe(h, t, `${receiver.url}/inactive`);
      await h.call("updateWebhook", { key: t.key, params: { id: inactive.id }, body: { active: false } });
      const deleted = await subscribe(h, t, `${receiver.url}/deleted`);
      await h.call("deleteWebhook", { key: t.key, params: { id: deleted.id } });
      const project = await addProject(h, t);
      await updateProject(await workspaceContext(h.deps, t.workspace.id), project.id, { name: "Changed" });
      await receiver.waitFor(1, "/updates");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.on("/updates")).toHaveLength(1);
      expect(receiver.on("/inactive")).toHaveLength(0);
      expect(receiver.on("/deleted")).toHaveLength(0);
      expect(receiver.on("/updates")[0]?.headers["x-webhook-event"]).toBe("project.updated");
      expect(await deliveries(h, t, onlyUpdates.id)).toHaveLength(1);
    });
  },
  { config: { webhookAllowPrivate: true } },
);

describeEachDialect("webhook subscriptions", (h) => {
  it("show the secret once, keep it encrypted, and rotate it on request", async () => {
    const t = await h.tenant();
    const url = "https://93.184.216.34/hooks";
    const created = (
      await h.call("createWebhook", {
        key: t.key,
        body: { url, events: ["project.created"], description: " CRM sync " },
      })
    ).json();
    expect(created).toMatchObject({
      object: "webhook_endpoint",
      url,
      events: ["project.created"],
      active: true,
      description: "CRM sync",
    });
    expect(created.id).toMatch(/^whk_/);

    const read = (await h.call("getWebhook", { key: t.key, params: { id: created.id } })).json();
    expect(read).not.toHaveProperty("secret");
    const listed = (await h.call("listWebhooks", { key: t.key })).json();
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const row = await h.deps.db
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_ciphertext).not.toContain(created.secret.slice(6));
    expect(h.deps.secrets.decrypt(row.secret_ciphertext)).toBe(created.secret);

    const rotated = (
      await h.call("updateWebhook", { key: t.key, params: { id: created.id }, body: { rotate_secret: true } })
    ).json();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const plain = (
      await h.call("updateWebhook", { key: t.key, params: { id: created.id }, body: { description: null } })
    ).json();
    expect(plain).not.toHaveProperty("secret");
    expect(plain.description).toBeNull();

    const removed = await h.call("deleteWebhook", { key: t.key, params: { id: created.id } });
    expect(removed.json()).toEqual({ id: created.id, object: "webhook_endpoint", deleted: true });
    expect((await h.call("getWebhook", { key: t.key, params: { id: created.id } })).statusCode).toBe(404);
  });

  it("refuse unknown event kinds, empty lists and bad URLs", async () => {
    const t = await h.tenant();
    const cases: [unknown, string][] = [
      [{ url: "https://93.184.216.34/h", events: ["project.deleted"] }, "events[0]"],
      [{ url: "https://93.184.216.34/h", events: [] }, "events"],
      [{ url: "ftp://93.184.216.34/h", events: ["project.created"] }, "url"],
      [{ url: "not a url", events: ["project.created"] }, "url"],
      [{ url: "https://user:pass@93.184.216.34/h", events: ["project.created"] }, "url"],
      [{ events: ["project.created"] }, "url"],
    ];
    for (const [body, field] of cases) {
      const res = await h.call("createWebhook", { key: t.key, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details[0].field).toBe(field);
    }
    expect((await h.call("listWebhooks", { key: t.key })).json().data).toEqual([]);
  });

  it("refuse webhook targets on non-public addresses, at creation and on change", async () => {
    const t = await h.tenant();
    const refused = [
      "http://127.0.0.1/hook",
      "http://10.0.0.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://0.0.0.0/hook",
      "http://localhost:8080/hook",
      "http://100.64.0.1/hook",
      "http://192.168.1.1/hook",
      "http://[fd00::1]/hook",
      "http://[fe80::1]/hook",
      "http://224.0.0.1/hook",
      "http://2130706433/hook",
    ];
    for (const url of refused) {
      const res = await h.call("createWebhook", { key: t.key, body: { url, events: ["project.created"] } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.details[0]).toMatchObject({ field: "url" });
    }
    const ok = await h.call("createWebhook", {
      key: t.key,
      body: { url: "https://93.184.216.34/h", events: ["project.created"] },
    });
    const change = await h.call("updateWebhook", {
      key: t.key,
      params: { id: ok.json().id },
      body: { url: "http://10.1.2.3/h" },
    });
    expect(change.statusCode).toBe(400);
  });

  it("cap a workspace at 20 subscriptions", async () => {
    const t = await h.tenant();
    for (let i = 0; i < 20; i++) {
      const res = await h.call("createWebhook", {
        key: t.key,
        body: { url: `https://93.184.216.34/h${i}`, events: ["project.created"] },
      });
      expect(res.statusCode).toBe(201);
    }
    const over = await h.call("createWebhook", {
      key: t.key,
      body: { url: "https://93.184.216.34/h", events: ["project.created"] },
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.message).toContain("at most 20");
  });
});

describeEachDialect(
  "webhook targets with private addresses allowed by the operator",
  (h) => {
    it("accept loopback and private targets", async () => {
      const t = await h.tenant();
      for (const url of ["http://127.0.0.1:9/h", "http://localhost:9/h", "http://[::1]:9/h", "http://10.0.0.1/h"]) {
        const res = await h.call("createWebhook", { key: t.key, body: { url, events: ["project.created"] } });
        expect(res.statusCode, url).toBe(201);
      }
    });
  },
  { config: { webhookAllowPrivate: true } },
);
