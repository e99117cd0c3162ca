import { beforeAll, expect, it } from "vitest";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";

const brand = {
  name: "Acme CRM",
  primary_domain: "acmecrm.com",
  competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }],
  prompts: ["best CRM for a small agency", "which CRM integrates with Slack?"],
};

async function tenantWithProject(h: Harness) {
  const tenant = await h.tenant("growth");
  const project = (await h.call("createProject", { key: tenant.key, body: brand })).json() as { id: string };
  return { tenant, project };
}

async function creditsUsed(h: Harness, key: string): Promise<number> {
  return (await h.call("getUsage", { key })).json().credits.used as number;
}

describeEachDialect("POST /v1/analyze, waiting for the analysis", (h) => {
  beforeAll(async () => {
    await h.startWorker();
  });

  it('answers 200 with the finished analysis when asked to wait ("wait": true)', async () => {
    const { tenant, project } = await tenantWithProject(h);
    const res = await h.call("analyze", {
      key: tenant.key,
      body: { project_id: project.id, engines: ["sandbox"], samples: 2, wait: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const analysis = res.json();
    expect(analysis.status).toBe("completed");
    expect(analysis.progress).toMatchObject({ total: 4, succeeded: 4, failed: 0, pending: 0 });
    expect(analysis.summary.overall.answers).toBe(4);
    expect(res.headers["preference-applied"]).toBe("wait=60");
    expect(await creditsUsed(h, tenant.key)).toBe(4);
  });

  it("answers 502 ENGINE_FAILURE when every answer failed, and gives the credits back", async () => {
    const { tenant, project } = await tenantWithProject(h);
    // chatgpt is in the Growth plan; this server has no OpenAI key configured.
    const res = await h.call("analyze", {
      key: tenant.key,
      body: { project_id: project.id, engines: ["chatgpt"], wait: true },
    });
    expect(res.statusCode, res.body).toBe(502);
    const error = res.json().error;
    expect(error.code).toBe("ENGINE_FAILURE");
    expect(error.details[0]).toMatchObject({ field: "engines", engine: "chatgpt" });
    expect(error.details[0].issue).toContain("OPENAI_API_KEY");
    const analysis = (
      await h.call("getAnalysis", { key: tenant.key, params: { id: error.details[0].analysis_id } })
    ).json();
    expect(analysis.status).toBe("failed");
    expect(analysis.credits).toEqual({ reserved: 2, released: 2 });
    expect(await creditsUsed(h, tenant.key)).toBe(0);
  });

  it("answers 200 when only some engines failed, listing the failures", async () => {
    const { tenant, project } = await tenantWithProject(h);
    const res = await h.call("analyze", {
      key: tenant.key,
      body: { project_id: project.id, engines: ["sandbox", "chatgpt"], wait: 30 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe("completed");
    expect(res.json().errors).toEqual([expect.objectContaining({ engine: "chatgpt", answers: 2 })]);
    expect(res.headers["preference-applied"]).toBe("wait=30");
  });

  it("waits when asked with Prefer: wait=N, and answers 202 at once without it", async () => {
    const { tenant, project } = await tenantWithProject(h);
    const waited = await h.call("analyze", {
      key: tenant.key,
      headers: { prefer: "respond-async, wait=20" },
      body: { project_id: project.id, engines: ["sandbox"] },
    });
    expect(waited.statusCode, waited.body).toBe(200);
    expect(waited.json().status).toBe("completed");
    expect(waited.headers["preference-applied"]).toBe("wait=20");

    const queued = await h.call("analyze", { key: tenant.key, body: { project_id: project.id, engines: ["sandbox"] } });
    expect(queued.statusCode).toBe(202);
    expect(queued.json().status).toBe("queued");
    expect(queued.headers["preference-applied"]).toBeUndefined();
  });

  it("refuses a wait that is not true, false or 1 to 60 seconds, changing nothing", async () => {
    const { tenant, project } = await tenantWithProject(h);
    for (const wait of [0, 61, -1, 1.5, "yes", null]) {
      const res = await h.call("analyze", { key: tenant.key, body: { project_id: project.id, wait } });
      expect(res.statusCode, `wait=${JSON.stringify(wait)}: ${res.body}`).toBe(400);
      expect(res.json().error.details[0].field).toBe("wait");
    }
    expect(await h.count("analyses", tenant.workspace.id)).toBe(0);
  });
});

describeEachDialect(
  "POST /v1/analyze when the wait runs out",
  (h) => {
    beforeAll(async () => {
      await h.startWorker();
    });

    it("answers 202 with the analysis still running, which then finishes", async () => {
      const { tenant, project } = await tenantWithProject(h);
      const res = await h.call("analyze", {
        key: tenant.key,
        body: { project_id: project.id, engines: ["sandbox"], wait: 1 },
      });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.headers["preference-applied"]).toBe("wait=1");
      // It waited and read the analysis again (a worker had started it), instead of answering with
      // the queued analysis at once; each answer takes the sandbox 2.5 s, so it cannot have finished.
      expect(res.json().status).toBe("running");
      expect(res.json().started_at).not.toBeNull();
      const later = await h.call("analyze", {
        key: tenant.key,
        body: { project_id: project.id, engines: ["sandbox"], prompts: ["one prompt"], wait: 20 },
      });
      expect(later.statusCode, later.body).toBe(200);
    });
  },
  { config: { engines: { ...defaultEngineConfig(), sandboxLatencyMs: 2_500 } } },
);
