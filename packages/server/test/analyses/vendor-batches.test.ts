import { afterAll, beforeAll, expect, it } from "vitest";
import { ENGINE_DESCRIPTORS } from "../../src/services/engines/catalog.ts";
import { answerCostMicros, batchPrice } from "../../src/services/engines/prices.ts";
import { defaultEngineConfig } from "../../src/services/engines/settings.ts";
import { startFakeBatchVendors } from "../helpers/fake-vendors/batches.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";

/**
 * Monitoring runs through the vendors' batch APIs (issue 16, ADR 0030): OpenAI Batch, Anthropic
 * Message Batches and Gemini batch mode, against local fakes of their wire formats driven through
 * the vendors' own SDKs. A run submits one batch per batch engine, asks the others live, looks at
 * the batches every SIGHTLINE_BATCH_POLL_SECONDS, stores their answers priced at the batch rate,
 * then completes; an expired batch fails its answers (credits given back); a refused batch is asked
 * live.
 */

const vendors = await startFakeBatchVendors();
afterAll(() => vendors.stop());

const POLL_SECONDS = 60;
const BATCH_ENGINES = ["chatgpt", "claude", "gemini"] as const;

const engines = defaultEngineConfig();
engines.vendors.chatgpt = { ...engines.vendors.chatgpt, apiKey: "sk-batch-test", baseUrl: vendors.openaiUrl };
engines.vendors.claude = { ...engines.vendors.claude, apiKey: "sk-ant-batch-test", baseUrl: vendors.anthropicUrl };
engines.vendors.gemini = { ...engines.vendors.gemini, apiKey: "gemini-batch-test", baseUrl: vendors.geminiUrl };
engines.timeoutMs = 10_000;
engines.batchPollSeconds = POLL_SECONDS;

const BRAND = {
  name: "Acme CRM",
  aliases: ["Acme"],
  primary_domain: "acmecrm.com",
  competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }],
  prompts: ["best CRM for a small agency", "cheapest CRM for startups"],
};

const ANSWER = {
  text: "For a small agency, HubSpot is the usual pick, while Acme CRM is praised for its price.",
  citations: [
    { url: "https://www.g2.com/categories/crm", title: "Best CRM Software" },
    { url: "https://acmecrm.com/pricing", title: "Acme CRM pricing" },
  ],
  searches: ["best crm small agency", "HubSpot vs Acme CRM pricing"],
};

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface ResultBody {
  engine: string;
  status: string;
  text: string | null;
  error: { message: string } | null;
  usage: { input_tokens: number | null; output_tokens: number | null; search_calls: number; cost: number } | null;
}

describeEachDialect(
  "monitoring runs through the vendors' batch APIs",
  (h: Harness) => {
    let t: Tenant;
    let projectId: string;
    let scheduleId: string;

    beforeAll(async () => {
      vendors.setAnswer(ANSWER);
      await h.startWorker();
      t = await h.tenant("agency");
      projectId = (await h.call("createProject", { key: t.key, body: BRAND })).json().id;
      const created = await h.call("createMonitoring", {
        key: t.key,
        body: {
          project_id: projectId,
          engines: [...BATCH_ENGINES, "sandbox"],
          samples: 2,
          schedule: { every: "day" },
          batch: true,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().batch).toBe(true);
      scheduleId = created.json().id;
    });

    const analysisOf = async (id: string) => (await h.call("getAnalysis", { key: t.key, params: { id } })).json();
    const resultsOf = async (id: string): Promise<ResultBody[]> =>
      (await h.call("listResults", { key: t.key, query: { analysis_id: id, limit: 100 } })).json().data;

    /** Starts a run and waits until it has sent its batches and stored its live answers. */
    async function startRun(expectedBatches: number, liveAnswers = 4) {
      const before = vendors.batches.length;
      const run = await h.call("runMonitoring", { key: t.key, params: { id: scheduleId } });
      expect(run.statusCode, run.body).toBe(202);
      const analysisId: string = run.json().analysis_id;
      await until(
        async () => ({ results: (await resultsOf(analysisId)).length, batches: vendors.batches.length - before }),
        (v) => v.results >= liveAnswers && v.batches === expectedBatches,
        "the live answers and the batches",
      );
      return { analysisId, batches: vendors.batches.slice(before) };
    }

    const completed = (id: string) =>
      until(
        () => analysisOf(id),
        (a) => a.status === "completed",
        "the analysis to complete",
      );

    /** The analysis's jobs on the queue: its next look at the batches is one of them once it is planned. */
    const jobsOf = async (analysisId: string) =>
      (await h.deps.db.selectFrom("jobs").select(["status", "payload"]).where("kind", "=", "analysis.run").execute())
        .filter((job) => job.payload.includes(analysisId))
        .map((job) => job.status);

    /**
     * Moves the clock past the next look at the batches and waits for the worker to take it. The look
     * is planned at the worker's "now" plus the poll interval, so the clock moves only once it is on
     * the queue (moved earlier, the look would be planned a whole interval later).
     */
    async function nextLook(analysisId: string, batches: { polls: number }[]) {
      await until(
        () => jobsOf(analysisId),
        (statuses) => statuses.includes("pending") && !statuses.includes("running"),
        "the next look to be planned",
      );
      const polls = batches.map((b) => b.polls);
      h.clock.advance(POLL_SECONDS * 1000);
      await until(
        async () => batches.map((b) => b.polls),
        (now) => now.every((n, i) => n > (polls[i] ?? 0)),
        "the worker to look at every batch",
      );
    }

    it("sends one batch per batch engine, asks the others live, and completes once the vendors have answered", async () => {
      const { analysisId, batches } = await startRun(3);
      expect(batches.map((b) => b.vendor).sort()).toEqual(["anthropic", "gemini", "openai"]);
      for (const batch of batches) {
        // Both prompts × 2 samples, each under an id of its own, the brand never named to the vendor.
        expect(batch.requests).toHaveLength(4);
        expect(new Set(batch.requests.map((r) => r.id)).size).toBe(4);
        const wire = JSON.stringify(batch.requests);
        for (const prompt of BRAND.prompts) expect(wire).toContain(prompt);
        expect(wire).not.toMatch(/acme/i);
      }
      expect(JSON.stringify(vendors.batches.find((b) => b.vendor === "openai")?.requests[0]?.body)).toContain(
        '"type":"web_search"',
      );
      expect(JSON.stringify(vendors.batches.find((b) => b.vendor === "anthropic")?.requests[0]?.body)).toContain(
        "web_search_20250305",
      );
      expect(JSON.stringify(vendors.batches.find((b) => b.vendor === "gemini")?.requests[0]?.body)).toContain(
        "googleSearch",
      );

      const running = await analysisOf(analysisId);
      expect(running).toMatchObject({ status: "running", batch: true, progress: { succeeded: 4, pending: 12 } });

      // Still running at the vendors: looked at, and looked at again later.
      await nextLook(analysisId, batches);
      expect((await analysisOf(analysisId)).status).toBe("running");

      vendors.finish();
      await nextLook(analysisId, batches);
      const done = await completed(analysisId);
      expect(done.progress).toMatchObject({ succeeded: 16, failed: 0, pending: 0 });
      expect(done.credits.released).toBe(0);

      const results = await resultsOf(analysisId);
      for (const engine of BATCH_ENGINES) {
        const mine = results.filter((r) => r.engine === engine);
        expect(mine).toHaveLength(4);
        const price = ENGINE_DESCRIPTORS.find((d) => d.name === engine)?.price;
        if (price === undefined) throw new Error(engine);
        for (const result of mine) {
          expect(result.status).toBe("succeeded");
          expect(result.text).toContain("HubSpot is the usual pick");
          const usage = result.usage;
          if (usage === null) throw new Error("no usage");
          expect(usage.input_tokens).toBeGreaterThan(0);
          // Priced at the batch rate: tokens at half their list price.
          const expected = answerCostMicros(batchPrice(price), {
            inputTokens: usage.input_tokens,
            outputTokens: usage.output_tokens,
            searchCalls: usage.search_calls,
            costUsd: null,
          });
          expect(Math.round(usage.cost * 1e6)).toBe(expected);
          expect(expected).toBeLessThan(
            answerCostMicros(price, {
              inputTokens: usage.input_tokens,
              outputTokens: usage.output_tokens,
              searchCalls: usage.search_calls,
              costUsd: null,
            }),
          );
        }
      }
      const runs = (await h.call("listMonitoringRuns", { key: t.key, params: { id: scheduleId } })).json().data;
      expect(runs[0]).toMatchObject({ analysis_id: analysisId, status: "completed" });
      expect(runs[0].cost).toEqual(done.cost);
    });

    it("fails the answers of a batch that expired and gives their credits back", async () => {
      const { analysisId, batches } = await startRun(3);
      vendors.finish("expired");
      await nextLook(analysisId, batches);
      const done = await completed(analysisId);
      expect(done.progress).toMatchObject({ succeeded: 4, failed: 12 });
      expect(done.credits.released).toBe(12);
      const failed = (await resultsOf(analysisId)).filter((r) => r.status === "failed");
      expect(failed).toHaveLength(12);
      expect(failed.map((r) => r.error?.message)).toContain(
        "chatgpt: not answered by the vendor's batch (the batch expired)",
      );
      expect(failed.every((r) => r.usage === null)).toBe(true);
    });

    it("asks live the answers of a batch its vendor refused", async () => {
      vendors.refuseNext("anthropic");
      // The sandbox's 4 answers and claude's 4, asked live.
      const { analysisId, batches } = await startRun(2, 8);
      expect(batches.map((b) => b.vendor).sort()).toEqual(["gemini", "openai"]);
      const live = (await resultsOf(analysisId)).filter((r) => r.engine === "claude");
      expect(live).toHaveLength(4);
      expect(live.every((r) => r.status === "succeeded")).toBe(true);
      vendors.finish();
      await nextLook(analysisId, batches);
      const done = await completed(analysisId);
      expect(done.progress).toMatchObject({ succeeded: 16, failed: 0 });
    });

    it("is a schedule's choice, off by default and changed by PATCH", async () => {
      const plain = await h.call("createMonitoring", {
        key: t.key,
        body: { project_id: projectId, engines: ["sandbox"], schedule: { every: "week" } },
      });
      expect(plain.json().batch).toBe(false);
      const patched = await h.call("updateMonitoring", {
        key: t.key,
        params: { id: plain.json().id },
        body: { batch: true },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json().batch).toBe(true);
      const refused = await h.call("updateMonitoring", {
        key: t.key,
        params: { id: plain.json().id },
        body: { batch: "yes" },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe("VALIDATION_ERROR");
    });
  },
  { config: { engines } },
);
