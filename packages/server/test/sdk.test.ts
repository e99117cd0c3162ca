import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Project, Sightline, SightlineConnectionError, SightlineError } from "@sightline/sdk";
import { beforeAll, expect, it } from "vitest";
import { sdkSources } from "../scripts/sdk-sources.ts";
import { V1_ROUTES } from "../src/http/v1/routes.ts";
import { PUBLIC_URL } from "./helpers/fixtures.ts";
import { describeEachDialect, type Tenant } from "./helpers/harness.ts";
import { REPO_ROOT } from "./helpers/processes.ts";

it("the SDK's generated types are current (run `npm run codegen` after changing a route)", () => {
  for (const [file, text] of Object.entries(sdkSources())) {
    const committed = readFileSync(resolve(REPO_ROOT, "packages/sdk/src/generated", file), "utf8");
    expect(committed, file).toBe(text);
  }
});

describeEachDialect("SDK against a real server", (h) => {
  let baseUrl: string;
  let tenant: Tenant;
  let sdk: Sightline;
  beforeAll(async () => {
    const address = await h.app.listen({ host: "127.0.0.1", port: 0 });
    baseUrl = `${address}/v1`;
    tenant = await h.tenant();
    sdk = new Sightline({ apiKey: tenant.key, baseUrl });
  });

  /** One SDK call per operation: a route without an SDK method fails here. */
  const calls: Record<string, (sdk: Sightline, project: Project) => Promise<unknown>> = {
    listProjects: (s) => s.projects.list({ limit: 2 }),
    createProject: (s) => s.projects.create({ name: "Via SDK", primary_domain: "sdk.example.com" }),
    getProject: (s, p) => s.projects.retrieve(p.id),
    updateProject: (s, p) => s.projects.update(p.id, { aliases: ["SDK"] }),
    getUsage: (s) => s.usage.retrieve(),
    analyze: (s, p) => s.analyses.create({ project_id: p.id, engines: ["sandbox"], prompts: ["best tool?"] }),
    listAnalyses: (s) => s.analyses.list({ limit: 2 }),
    getAnalysis: async (s, p) =>
      s.analyses.retrieve(
        (await s.analyses.create({ project_id: p.id, engines: ["sandbox"], prompts: ["which one?"] })).id,
      ),
    listResults: (s) => s.results.list({ limit: 2 }),
    listMonitoring: (s) => s.monitoring.list(),
    createMonitoring: (s, p) => s.monitoring.create({ project_id: p.id, prompts: ["x?"], schedule: { every: "day" } }),
    getMonitoring: async (s, p) =>
      s.monitoring.retrieve(
        (await s.monitoring.create({ project_id: p.id, prompts: ["x?"], schedule: { every: "day" } })).id,
      ),
    updateMonitoring: async (s, p) =>
      s.monitoring.update(
        (await s.monitoring.create({ project_id: p.id, prompts: ["x?"], schedule: { every: "day" } })).id,
        { samples: 2 },
      ),
    deleteMonitoring: async (s, p) =>
      s.monitoring.delete(
        (await s.monitoring.create({ project_id: p.id, prompts: ["x?"], schedule: { every: "day" } })).id,
      ),
    runMonitoring: async (s, p) =>
      s.monitoring.run(
        (await s.monitoring.create({ project_id: p.id, prompts: ["x?"], schedule: { every: "day" } })).id,
      ),
    listMonitoringRuns: async (s, p) =>
      s.monitoring.runs(
        (await s.monitoring.create({ project_id: p.id, prompts: ["x?"], schedule: { every: "day" } })).id,
      ),
    listAlerts: (s) => s.monitoring.alerts(),
    listReports: (s) => s.reports.list(),
    getReport: async (s) => {
      const first = (await s.reports.list({ limit: 1 })).data[0];
      return first === undefined ? s.reports.list() : s.reports.retrieve(first.id);
    },
    getResult: async (s) => {
      const page = await s.results.list({ limit: 1 });
      const first = page.data[0];
      return first === undefined ? s.results.list() : s.results.retrieve(first.id);
    },
    listWebhooks: (s) => s.webhooks.list(),
    createWebhook: (s) => s.webhooks.create({ url: PUBLIC_URL, events: ["project.created"] }),
    getWebhook: async (s) =>
      s.webhooks.retrieve((await s.webhooks.create({ url: PUBLIC_URL, events: ["project.updated"] })).id),
    updateWebhook: async (s) => {
      const hook = await s.webhooks.create({ url: PUBLIC_URL, events: ["project.updated"] });
      return s.webhooks.update(hook.id, { rotate_secret: true });
    },
    deleteWebhook: async (s) =>
      s.webhooks.delete((await s.webhooks.create({ url: PUBLIC_URL, events: ["project.updated"] })).id),
    listWebhookDeliveries: async (s) =>
      s.webhooks.deliveries((await s.webhooks.create({ url: PUBLIC_URL, events: ["project.updated"] })).id),
    redeliverWebhook: async (s, p) => {
      const hook = await s.webhooks.create({ url: PUBLIC_URL, events: ["project.updated"] });
      await s.projects.update(p.id, { name: `Renamed ${Math.random()}` });
      const deliveries = await s.webhooks.deliveries(hook.id);
      return s.webhooks.redeliver(hook.id, deliveries.data[0]?.id ?? "none");
    },
  };

  it("covers every operation of the API", async () => {
    expect(Object.keys(calls).sort()).toEqual(V1_ROUTES.map((r) => r.operationId).sort());
    const project = await sdk.projects.create({ name: "Coverage", primary_domain: "coverage.example.com" });
    for (const call of Object.values(calls)) await call(sdk, project);
  });

  it("creates, reads, updates and lists brands", async () => {
    const created = await sdk.projects.create({
      name: "Acme",
      primary_domain: "acme.com",
      competitors: [{ name: "Globex", domains: ["globex.com"] }],
    });
    expect(created).toMatchObject({ object: "project", name: "Acme", competitors: [{ name: "Globex", aliases: [] }] });
    expect(await sdk.projects.retrieve(created.id)).toEqual(created);
    const updated = await sdk.projects.update(created.id, { country: "DE" });
    expect(updated.country).toBe("DE");
    const page = await sdk.projects.list({ limit: 1 });
    expect(page.data).toHaveLength(1);
  });

  it("walks every page with listAll", async () => {
    const own = await h.tenant();
    const client = new Sightline({ apiKey: own.key, baseUrl });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await client.projects.create({ name: `P${i}`, primary_domain: `p${i}.example.com` })).id);
    const seen: string[] = [];
    for await (const project of client.projects.listAll({ limit: 3 })) seen.push(project.id);
    expect(seen.sort()).toEqual(ids.sort());
  });

  it("raises SightlineError with the spec's code, message, request id and details", async () => {
    const error = await sdk.projects
      .create({ name: "Acme", primary_domain: "nope", other_domains: ["also nope"] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SightlineError);
    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect((error as SightlineError).requestId).toMatch(/^req_/);
    expect((error as SightlineError).details.map((d) => d.field)).toEqual(["primary_domain", "other_domains[0]"]);

    const badKey = new Sightline({ apiKey: "sl_live_wrong", baseUrl });
    await expect(badKey.projects.list()).rejects.toMatchObject({ status: 401, code: "INVALID_API_KEY" });
    await expect(sdk.projects.retrieve("prj_missing")).rejects.toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  it("raises SightlineConnectionError when the server cannot be reached", async () => {
    const offline = new Sightline({ apiKey: tenant.key, baseUrl: "http://127.0.0.1:9/v1", maxRetries: 0 });
    await expect(offline.projects.list()).rejects.toBeInstanceOf(SightlineConnectionError);
  });
});
