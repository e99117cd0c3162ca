import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningWorker } from "../../src/app/worker.ts";
import { createAnalysis } from "../../src/services/analyses/create.ts";
import { runAnalysisHandler } from "../../src/services/analyses/run.ts";
import { SCORE_VERSION } from "../../src/services/measurement/score.ts";
import { DEFAULT_PLANS } from "../../src/services/plans/catalog.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { Receiver } from "../helpers/receiver.ts";

const brand = {
  name: "Acme CRM",
  aliases: ["Acme"],
  primary_domain: "acmecrm.com",
  competitors: [
    { name: "HubSpot", domains: ["hubspot.com"] },
    { name: "Salesforce", domains: ["salesforce.com"] },
    { name: "Pipedrive", domains: ["pipedrive.com"] },
  ],
  prompts: ["best CRM for a small agency", "which CRM integrates with Slack?", "cheapest CRM for startups"],
};

async function waitForAnalysis(h: Harness, key: string, id: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const analysis = (await h.call("getAnalysis", { key, params: { id } })).json();
    if (analysis.status === "completed" || analysis.status === "failed") return analysis;
    if (Date.now() > deadline) throw new Error(`analysis still ${analysis.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function tenantWithProject(h: Harness, plan: "growth" | "agency" = "growth") {
  const t = await h.tenant(plan);
  const project = (await h.call("createProject", { key: t.key, body: brand })).json();
  return { t, project };
}

async function counts(h: Harness, t: Tenant) {
  const rows = async (table: "analyses" | "jobs" | "credit_entries") =>
    table === "jobs"
      ? (await h.deps.db.selectFrom("jobs").select("id").where("kind", "=", "analysis.run").execute()).length
      : (await h.deps.db.selectFrom(table).select("id").where("workspace_id", "=", t.workspace.id).execute()).length;
  return { analyses: await rows("analyses"), jobs: await rows("jobs"), credits: await rows("credit_entries") };
}

describeEachDialect(
  "analyses with the sandbox engine",
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

    it("runs, stores measured results, summarises them from the stored counts, and sends analysis.completed", async () => {
      const { t, project } = await tenantWithProject(h);
      await h.call("createWebhook", {
        key: t.key,
        body: { url: `${receiver.url}/done`, events: ["analysis.completed"] },
      });
      const queued = await h.call("analyze", { key: t.key, body: { project_id: project.id, samples: 2 } });
      expect(queued.statusCode, queued.body).toBe(202);
      expect(queued.json()).toMatchObject({
        status: "queued",
        trigger: "api",
        engines: ["sandbox"],
        prompts: brand.prompts,
        samples: 2,
        progress: { total: 6, succeeded: 0, failed: 0, pending: 6 },
        credits: { reserved: 6, released: 0 },
        summary: null,
      });

      const done = await waitForAnalysis(h, t.key, queued.json().id);
      expect(done).toMatchObject({
        status: "completed",
        progress: { total: 6, succeeded: 6, failed: 0, pending: 0 },
        errors: [],
      });
      expect(done.completed_at).not.toBeNull();

      const results = (await h.call("listResults", { key: t.key, query: { analysis_id: done.id, limit: 100 } })).json()
        .data;
      expect(results).toHaveLength(6);
      for (const result of results) {
        expect(result).toMatchObject({
          status: "succeeded",
          engine: "sandbox",
          model: "sandbox-1",
          score_version: SCORE_VERSION,
        });
        expect(result.text.length).toBeGreaterThan(0);
        expect(result.competitors.map((c: { name: string }) => c.name)).toEqual(["HubSpot", "Salesforce", "Pipedrive"]);
      }
      // The summary agrees with an independent count over the stored answers.
      const mentioned = results.filter((r: { brand: { mentioned: boolean } }) => r.brand.mentioned).length;
      expect(done.summary.overall.visibility).toMatchObject({ n: 6, count: mentioned });
      expect(done.summary.by_engine.sandbox.answers).toBe(6);
      expect(done.summary.by_prompt.map((p: { prompt: string }) => p.prompt)).toEqual(brand.prompts);
      const meanScore = results.reduce((sum: number, r: { score: number }) => sum + r.score, 0) / 6;
      // Rounded to one decimal: a mean of exactly x.x5 may round either way in floating point.
      expect(Math.abs(done.summary.overall.visibility_score - meanScore)).toBeLessThanOrEqual(0.05 + 1e-9);

      const one = await h.call("getResult", { key: t.key, params: { id: results[0].id } });
      expect(one.json()).toEqual(results[0]);

      await receiver.waitFor(1, "/done");
      const delivered = JSON.parse(receiver.on("/done")[0]?.body ?? "{}");
      expect(delivered).toMatchObject({
        type: "analysis.completed",
        data: { object: { id: done.id, status: "completed" } },
      });
      expect(delivered.data.object.summary.overall.visibility.count).toBe(mentioned);

      const usage = (await h.call("getUsage", { key: t.key })).json();
      expect(usage.credits).toMatchObject({ used: 6, by_engine: { sandbox: 6 } });
    });

    it("gives the same answers for the same analysis seed: the sandbox is deterministic", async () => {
      const { t, project } = await tenantWithProject(h);
      const id = (await h.call("analyze", { key: t.key, body: { project_id: project.id } })).json().id;
      await waitForAnalysis(h, t.key, id);
      const first = (await h.call("listResults", { key: t.key, query: { analysis_id: id } })).json().data;
      const { answer } = await import("../../src/services/engines/adapters/sandbox.ts");
      for (const result of first) {
        const again = answer({
          prompt: result.prompt,
          country: null,
          language: null,
          sample: result.sample,
          seed: id,
          simulation: {
            brand: { name: brand.name, aliases: brand.aliases, domains: [brand.primary_domain] },
            competitors: brand.competitors.map((c) => ({ name: c.name, aliases: [], domains: c.domains })),
          },
        });
        expect(again.text).toBe(result.text);
        // The searches the sandbox ran are stored on the result as it reported them.
        expect(result.searches).toEqual(again.searches);
        expect(result.searches[0]).toBe(result.prompt.replace(/[?.!]+$/, "").toLowerCase());
      }
    });

    it("keeps what one engine answered when another fails: ENGINE_FAILURE on the analysis and its results", async () => {
      const { t, project } = await tenantWithProject(h);
      const id = (
        await h.call("analyze", { key: t.key, body: { project_id: project.id, engines: ["sandbox", "chatgpt"] } })
      ).json().id;
      const done = await waitForAnalysis(h, t.key, id);
      expect(done.status).toBe("completed");
      expect(done.progress).toEqual({ total: 6, succeeded: 3, failed: 3, pending: 0 });
      expect(done.errors).toEqual([
        { engine: "chatgpt", code: "ENGINE_FAILURE", message: expect.stringContaining("OPENAI_API_KEY"), answers: 3 },
      ]);
      expect(done.credits).toEqual({ reserved: 6, released: 3 });
      const failed = (await h.call("listResults", { key: t.key, query: { analysis_id: id, engine: "chatgpt" } })).json()
        .data;
      expect(failed).toHaveLength(3);
      for (const result of failed) {
        expect(result).toMatchObject({ status: "failed", text: null, score: null, error: { code: "ENGINE_FAILURE" } });
      }
      expect(done.summary.overall.answers).toBe(3);
      const usage = (await h.call("getUsage", { key: t.key })).json();
      expect(usage.credits).toMatchObject({ used: 3, by_engine: { sandbox: 3 } });
    });

    it("fails the analysis when every answer failed, and gives every credit back", async () => {
      const { t, project } = await tenantWithProject(h);
      const id = (
        await h.call("analyze", { key: t.key, body: { project_id: project.id, engines: ["chatgpt"] } })
      ).json().id;
      const done = await waitForAnalysis(h, t.key, id);
      expect(done).toMatchObject({ status: "failed", credits: { reserved: 3, released: 3 } });
      expect((await h.call("getUsage", { key: t.key })).json().credits.used).toBe(0);
    });

    it("filters results by engine and by a half-open time range", async () => {
      const { t, project } = await tenantWithProject(h);
      const first = (await h.call("analyze", { key: t.key, body: { project_id: project.id, prompts: ["one"] } })).json()
        .id;
      await waitForAnalysis(h, t.key, first);
      const boundary = new Date(h.clock.now().getTime() + 60_000);
      h.clock.set(boundary);
      const second = (
        await h.call("analyze", { key: t.key, body: { project_id: project.id, prompts: ["two"] } })
      ).json().id;
      await waitForAnalysis(h, t.key, second);
      const list = async (query: Record<string, string>) =>
        (await h.call("listResults", { key: t.key, query: { project_id: project.id, ...query } }))
          .json()
          .data.map((r: { analysis_id: string }) => r.analysis_id);
      expect(await list({ to: boundary.toISOString() })).toEqual([first]);
      expect(await list({ from: boundary.toISOString() })).toEqual([second]);
      expect(await list({ engine: "sandbox" })).toEqual([second, first]);
      expect(await list({ engine: "perplexity" })).toEqual([]);
    });
  },
  { config: { webhookAllowPrivate: true } },
);

describeEachDialect("analyses refused", (h) => {
  it("validates the request before anything else, and writes nothing", async () => {
    const { t, project } = await tenantWithProject(h);
    const before = await counts(h, t);
    const cases: [unknown, number, string, string | undefined][] = [
      [{ project_id: project.id, engines: ["bard"] }, 400, "VALIDATION_ERROR", "engines[0]"],
      [{ project_id: project.id, samples: 11 }, 400, "VALIDATION_ERROR", "samples"],
      [{ project_id: project.id, prompts: [] }, 400, "VALIDATION_ERROR", "prompts"],
      [{ project_id: project.id, prompts: ["  "] }, 400, "VALIDATION_ERROR", "prompts"],
      [{ project_id: project.id, country: "UK" }, 400, "VALIDATION_ERROR", "country"],
      [{ project_id: project.id, unknown: 1 }, 400, "VALIDATION_ERROR", "unknown"],
      [
        {
          project_id: project.id,
          engines: ["sandbox", "chatgpt"],
          prompts: Array.from({ length: 200 }, (_, i) => `p${i}`),
          samples: 10,
        },
        400,
        "VALIDATION_ERROR",
        undefined,
      ],
      [{ project_id: "prj_missing" }, 404, "NOT_FOUND", undefined],
      [{ project_id: project.id, engines: ["claude"] }, 403, "ENGINE_NOT_ALLOWED", "engines"],
      [{ project_id: project.id, engines: ["sandbox", "bard", "claude"] }, 400, "VALIDATION_ERROR", "engines[1]"],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await h.call("analyze", { key: t.key, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error.code).toBe(code);
      if (field !== undefined) expect(res.json().error.details[0].field).toBe(field);
    }
    expect(await counts(h, t)).toEqual(before);
  });

  it("checks samples in the service too, for callers that bypass the HTTP schema (the CLI)", async () => {
    const { t, project } = await tenantWithProject(h);
    const before = await counts(h, t);
    const ctx = await workspaceContext(h.deps, t.workspace.id, { type: "system" });
    for (const samples of [0, -2, 1.5, 11]) {
      const refused = await createAnalysis(ctx, { project_id: project.id, samples }, { trigger: "cli" }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused, String(samples)).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "samples" }] });
    }
    expect(await counts(h, t)).toEqual(before);
  });

  it("needs a project with prompts, or prompts in the request", async () => {
    const t = await h.tenant();
    const bare = (
      await h.call("createProject", { key: t.key, body: { name: "Bare", primary_domain: "bare.io" } })
    ).json();
    const res = await h.call("analyze", { key: t.key, body: { project_id: bare.id } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0]).toMatchObject({
      field: "prompts",
      issue: expect.stringContaining("tracks no prompts"),
    });
    expect(
      (await h.call("analyze", { key: t.key, body: { project_id: bare.id, prompts: ["best?"] } })).statusCode,
    ).toBe(202);
  });

  it("refuses an engine outside the plan in the results filter, and unknown engines and bad ranges", async () => {
    const t = await h.tenant("growth");
    const cases: [Record<string, string>, number, string][] = [
      [{ engine: "claude" }, 403, "ENGINE_NOT_ALLOWED"],
      [{ engine: "bard" }, 400, "VALIDATION_ERROR"],
      [{ from: "yesterday" }, 400, "VALIDATION_ERROR"],
      [{ from: "2026-11-02", to: "2026-11-01" }, 400, "VALIDATION_ERROR"],
      [{ from: "2026-02-30" }, 400, "VALIDATION_ERROR"], // not rolled over to 2 March
      [{ to: "2026-13-01T00:00:00Z" }, 400, "VALIDATION_ERROR"],
    ];
    for (const [query, status, code] of cases) {
      const res = await h.call("listResults", { key: t.key, query });
      expect(res.statusCode, JSON.stringify(query)).toBe(status);
      expect(res.json().error.code).toBe(code);
    }
  });
});

describeEachDialect(
  "analyses and the credit allowance",
  (h) => {
    it("refuses with BILLING_LIMIT_EXCEEDED when the answers would pass the allowance, writing nothing", async () => {
      const { t, project } = await tenantWithProject(h);
      const before = await counts(h, t);
      const over = await h.call("analyze", { key: t.key, body: { project_id: project.id, samples: 4 } }); // 12 credits
      expect(over.statusCode).toBe(403);
      expect(over.json().error).toMatchObject({
        code: "BILLING_LIMIT_EXCEEDED",
        details: [{ allowance: 10, used: 0, requested: 12 }],
      });
      expect(await counts(h, t)).toEqual(before);
      const fits = await h.call("analyze", { key: t.key, body: { project_id: project.id, samples: 3 } }); // 9 credits
      expect(fits.statusCode).toBe(202);
      const last = await h.call("analyze", { key: t.key, body: { project_id: project.id, prompts: ["a", "b"] } });
      expect(last.json().error).toMatchObject({ code: "BILLING_LIMIT_EXCEEDED", details: [{ used: 9, requested: 2 }] });
    });

    it("refuses with 503 BILLING_UNAVAILABLE and Retry-After while the quota store is unusable, then recovers", async () => {
      const { t, project } = await tenantWithProject(h);
      const before = await counts(h, t);
      const blocker = await holdQuotaStore(h);
      let res: Awaited<ReturnType<Harness["call"]>>;
      try {
        res = await h.call("analyze", { key: t.key, body: { project_id: project.id, prompts: ["x"] } });
      } finally {
        await blocker.release();
      }
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe("BILLING_UNAVAILABLE");
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      expect(await counts(h, t)).toEqual(before);
      const again = await h.call("analyze", { key: t.key, body: { project_id: project.id, prompts: ["x"] } });
      expect(again.statusCode).toBe(202);
    }, 20_000);
  },
  { config: { plans: { ...DEFAULT_PLANS, growth: { ...DEFAULT_PLANS.growth, creditsPerMonth: 10 } } } },
);

async function holdQuotaStore(h: Harness): Promise<{ release(): Promise<void> }> {
  const config = h.database.config;
  if (config.dialect === "postgres") {
    const pg = await import("pg");
    const client = new pg.default.Client({ connectionString: config.url });
    await client.connect();
    await client.query("begin");
    await client.query("lock table credit_usage in access exclusive mode");
    return {
      release: async () => {
        await client.query("rollback");
        await client.end();
      },
    };
  }
  const { default: BetterSqlite3 } = await import("better-sqlite3");
  const other = new BetterSqlite3(config.path);
  other.prepare("begin immediate").run();
  return {
    release: async () => {
      other.prepare("rollback").run();
      other.close();
    },
  };
}

describeEachDialect("an analysis finished by two attempts at once", (h) => {
  it("releases the credits of failed answers once, and records one analysis.completed", async () => {
    // No worker here: the test plays two attempts of the same job, as when a lease expires under a
    // handler that is still alive.
    const { t, project } = await tenantWithProject(h);
    const id = (
      await h.call("analyze", { key: t.key, body: { project_id: project.id, engines: ["sandbox", "chatgpt"] } })
    ).json().id;
    const handler = runAnalysisHandler(h.deps);
    const job = (attempt: number) => ({
      id: `job_${attempt}`,
      kind: "analysis.run",
      payload: { analysis_id: id },
      attempt,
      maxAttempts: 5,
      createdAt: h.clock.now().toISOString(),
    });
    await Promise.all([handler(job(1)), handler(job(2))]);
    const done = (await h.call("getAnalysis", { key: t.key, params: { id } })).json();
    expect(done).toMatchObject({ status: "completed", credits: { reserved: 6, released: 3 } });
    expect((await h.call("getUsage", { key: t.key })).json().credits.used).toBe(3);
    const events = await h.deps.db
      .selectFrom("events")
      .select("id")
      .where("workspace_id", "=", t.workspace.id)
      .where("type", "=", "analysis.completed")
      .execute();
    expect(events).toHaveLength(1);
  });
});
