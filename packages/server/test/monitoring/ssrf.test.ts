import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningWorker } from "../../src/app/worker.ts";
import { type HostResolver, isPublicAddress } from "../../src/lib/addresses.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { listDeliveries } from "../../src/services/webhooks/deliveries.ts";
import { HttpTransport } from "../../src/services/webhooks/transport.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect } from "../helpers/harness.ts";
import { Receiver } from "../helpers/receiver.ts";

/** A DNS that answers what the test says: the only fake here, standing in for the resolver we do not own. */
class ScriptedResolver implements HostResolver {
  answers = new Map<string, string[]>();
  async resolve(hostname: string): Promise<string[]> {
    const found = this.answers.get(hostname);
    if (found === undefined) throw new Error(`ENOTFOUND ${hostname}`);
    return found;
  }
}

describe("address classification", () => {
  it("accepts public unicast addresses only", () => {
    const blocked = [
      "127.0.0.1",
      "127.255.0.3",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "240.0.0.1",
      "192.0.2.10",
      "198.18.0.1",
      "::1",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "ff02::1",
      "2001:db8::1",
      "64:ff9b::7f00:1",
      "2002:7f00:1::",
      "[::1]",
      "not an address",
    ];
    for (const address of blocked) expect(isPublicAddress(address), address).toBe(false);
    for (const address of ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe("HTTP transport, at connect time", () => {
  let receiver: Receiver;
  const resolver = new ScriptedResolver();
  const transport = new HttpTransport({ timeoutMs: 2_000, allowPrivate: false, resolver });
  beforeAll(async () => {
    receiver = await new Receiver().start();
  });
  afterAll(async () => receiver.stop());

  it("refuses an IP literal that is not public, without connecting", async () => {
    const port = new URL(receiver.url).port;
    for (const host of ["127.0.0.1", "[::1]", "[::ffff:127.0.0.1]", "0.0.0.0"]) {
      const result = await transport.send({ url: `http://${host}:${port}/x`, headers: {}, body: "{}" });
      expect(result.statusCode, host).toBeNull();
      expect(result.error, host).toMatch(/^refused/);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses a host name that resolves to a private address, even among public ones", async () => {
    const port = new URL(receiver.url).port;
    resolver.answers.set("inside.example.test", ["127.0.0.1"]);
    resolver.answers.set("mixed.example.test", ["93.184.216.34", "10.0.0.7"]);
    for (const host of ["inside.example.test", "mixed.example.test"]) {
      const result = await transport.send({ url: `http://${host}:${port}/x`, headers: {}, body: "{}" });
      expect(result.error, host).toMatch(/^refused: .* is not a public address/);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it("connects to private addresses when the operator allows them", async () => {
    const open = new HttpTransport({ timeoutMs: 2_000, allowPrivate: true, resolver });
    resolver.answers.set("local.example.test", ["127.0.0.1"]);
    const port = new URL(receiver.url).port;
    const result = await open.send({ url: `http://local.example.test:${port}/ok`, headers: {}, body: "{}" });
    expect(result.statusCode).toBe(200);
  });

  it("gives up after its timeout", async () => {
    receiver.answer({ status: 200, delayMs: 3_000 });
    const quick = new HttpTransport({ timeoutMs: 200, allowPrivate: true, resolver });
    const result = await quick.send({ url: `${receiver.url}/slow`, headers: {}, body: "{}" });
    expect(result.statusCode).toBeNull();
    expect(result.error).toContain("timed out");
    receiver.answer({ status: 200 });
  });
});

describeEachDialect("DNS rebinding", (h) => {
  let receiver: Receiver;
  let worker: RunningWorker;
  const resolver = new ScriptedResolver();
  beforeAll(async () => {
    receiver = await new Receiver().start();
    h.deps.webhookTargets.resolver = resolver;
    worker = await h.startWorker(new HttpTransport({ timeoutMs: 2_000, allowPrivate: false, resolver }));
  });
  afterAll(async () => {
    await worker.stop(1_000);
    await receiver.stop();
  });

  it("fails a delivery whose host resolved publicly at creation but privately at delivery", async () => {
    const t = await h.tenant();
    const port = new URL(receiver.url).port;
    resolver.answers.set("rebind.example.test", ["93.184.216.34"]);
    const created = await h.call("createWebhook", {
      key: t.key,
      body: { url: `http://rebind.example.test:${port}/hook`, events: ["project.created"] },
    });
    expect(created.statusCode, created.body).toBe(201);
    resolver.answers.set("rebind.example.test", ["127.0.0.1"]); // the attacker's DNS flips
    const ctx = await workspaceContext(h.deps, t.workspace.id);
    await createProject(ctx, { name: "Rebound", primary_domain: "rebound.example.com" });
    const deadline = Date.now() + 10_000;
    let attempts: { error: string | null }[] = [];
    // An attempt is written before it is sent and completed after: wait for its outcome.
    while ((attempts[0]?.error ?? "").startsWith("no answer") || attempts.length === 0) {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
      attempts = (await listDeliveries(ctx, created.json().id, {})).data[0]?.attempts ?? [];
    }
    expect(attempts[0]?.error).toMatch(/^refused: rebind\.example\.test resolved to 127\.0\.0\.1/);
    expect(receiver.received).toHaveLength(0);
  });
});
