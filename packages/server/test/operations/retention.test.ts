import { beforeAll, expect, it } from "vitest";
import { prune } from "../../src/services/retention/prune.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";

const DAY = 86_400_000;

/** A job row as the queue writes it, finished (or not) at `at`. */
async function job(h: Harness, id: string, status: string, at: string): Promise<void> {
  await h.deps.db
    .insertInto("jobs")
    .values({
      id,
      kind: "retention.test",
      payload: "{}",
      status,
      run_at: at,
      attempts: 1,
      max_attempts: 3,
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: at,
      updated_at: at,
      finished_at: status === "succeeded" || status === "dead" ? at : null,
    })
    .execute();
}

describeEachDialect(
  "retention: old finished work pruned in batches, figures kept",
  (h) => {
    let t: Tenant;
    let projectId: string;
    let analysisId: string;

    beforeAll(async () => {
      await h.startWorker();
      t = await h.tenant("agency");
      // A subscription (to nowhere reachable: the deliveries are set to their final states below).
      await h.call("createWebhook", {
        key: t.key,
        body: { url: "http://127.0.0.1:9/hook", events: ["project.created", "analysis.completed"] },
      });
      projectId = (
        await h.call("createProject", {
          key: t.key,
          body: { name: "Acme", primary_domain: "acme.com", prompts: ["best crm", "cheap crm"] },
        })
      ).json().id;
      const res = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, engines: ["sandbox"], samples: 3, wait: 30 },
      });
      expect(res.statusCode, res.body).toBe(200);
      analysisId = res.json().id;
    });

    it("deletes finished jobs past their age, 500 at a time until none is left, and nothing else", async () => {
      const old = new Date(h.clock.now().getTime() - 8 * DAY).toISOString();
      const recent = new Date(h.clock.now().getTime() - 6 * DAY).toISOString();
      for (let i = 0; i < 1_200; i++) await job(h, `job_old${String(i).padStart(20, "0")}`, "succeeded", old);
      await job(h, "job_olddead000000000000000", "dead", old);
      await job(h, "job_recent0000000000000000", "succeeded", recent);
      await job(h, "job_pending000000000000000", "pending", old);
      const counts = await prune(h.deps, h.clock.now(), { jobsDays: 7, deliveriesDays: 30, answerTextDays: null });
      expect(counts.jobs).toBe(1_201);
      const left = await h.deps.db.selectFrom("jobs").select("id").where("kind", "=", "retention.test").execute();
      expect(left.map((r) => r.id).sort()).toEqual(["job_pending000000000000000", "job_recent0000000000000000"]);
      // A second pass (or another worker's at once) deletes nothing more.
      expect((await prune(h.deps, h.clock.now(), { jobsDays: 7, deliveriesDays: 30, answerTextDays: null })).jobs).toBe(
        0,
      );
    });

    it("deletes done webhook deliveries with their attempts past their age, never a pending one", async () => {
      const deliveries = await h.deps.db
        .selectFrom("webhook_deliveries")
        .select("id")
        .where("workspace_id", "=", t.workspace.id)
        .orderBy("created_at")
        .execute();
      expect(deliveries.length).toBeGreaterThanOrEqual(2);
      const [done, pending] = deliveries as [{ id: string }, { id: string }];
      const old = new Date(h.clock.now().getTime() - 31 * DAY).toISOString();
      await h.deps.db
        .updateTable("webhook_deliveries")
        .set({ status: "failed", updated_at: old })
        .where("id", "=", done.id)
        .execute();
      await h.deps.db
        .updateTable("webhook_deliveries")
        .set({ status: "pending", updated_at: old })
        .where("id", "=", pending.id)
        .execute();
      await h.deps.db
        .insertInto("webhook_attempts")
        .values({
          id: "wha_retention0000000000000",
          delivery_id: done.id,
          attempt: 1,
          status_code: 500,
          latency_ms: 3,
          response_excerpt: null,
          error: null,
          created_at: old,
        })
        .execute();
      const counts = await prune(h.deps, h.clock.now(), { jobsDays: 7, deliveriesDays: 30, answerTextDays: null });
      expect(counts.deliveries).toBe(1);
      const ids = (await h.deps.db.selectFrom("webhook_deliveries").select("id").execute()).map((r) => r.id);
      expect(ids).not.toContain(done.id);
      expect(ids).toContain(pending.id);
      expect(
        await h.deps.db.selectFrom("webhook_attempts").select("id").where("delivery_id", "=", done.id).execute(),
      ).toEqual([]);
    });

    it("removes old answers' texts when asked, keeping their measures and every figure", async () => {
      const metrics = async () =>
        (
          await h.call("getProjectMetrics", {
            key: t.key,
            params: { id: projectId },
            query: { from: "2026-11-01T00:00:00Z", to: "2026-11-30T00:00:00Z" },
          })
        ).json();
      const results = async () =>
        (await h.call("listResults", { key: t.key, query: { analysis_id: analysisId, limit: 100 } })).json().data as {
          id: string;
          text: string | null;
          brand: unknown;
          citations: unknown[];
          score: number;
        }[];
      const figuresBefore = await metrics();
      const before = await results();
      expect(before.every((r) => typeof r.text === "string" && r.text.length > 0)).toBe(true);

      // Kept by default; with a 30-day age, 31 days on, the texts go.
      const later = new Date(h.clock.now().getTime() + 31 * DAY);
      expect((await prune(h.deps, later, { jobsDays: 7, deliveriesDays: 30, answerTextDays: null })).answerTexts).toBe(
        0,
      );
      const counts = await prune(h.deps, later, { jobsDays: 7, deliveriesDays: 30, answerTextDays: 30 });
      expect(counts.answerTexts).toBe(before.length);
      const after = await results();
      expect(after.map((r) => r.text)).toEqual(before.map(() => null));
      expect(after.map(({ text: _t, ...rest }) => rest)).toEqual(before.map(({ text: _t, ...rest }) => rest));
      expect(await metrics()).toEqual(figuresBefore);
      // The analysis's summary and report were stored before: unchanged as well.
      const analysis = (await h.call("getAnalysis", { key: t.key, params: { id: analysisId } })).json();
      expect(analysis.summary.overall.answers).toBe(before.length);
    });
  },
  { config: { webhookAllowPrivate: true } },
);
