import { beforeAll, expect, it } from "vitest";
import type { RunningWorker } from "../../src/app/worker.ts";
import { REBUILD_ROLLUPS_JOB, rebuildRollupsHandler } from "../../src/services/analytics/rebuild.ts";
import { measureAnswer } from "../../src/services/measurement/measure.ts";
import { SCORE_VERSION } from "../../src/services/measurement/score.ts";
import { REMEASURE_JOB } from "../../src/services/remeasure/remeasures.ts";
import { type Remeasurer, remeasureHandler } from "../../src/services/remeasure/run.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";
import { ANALYTICS_BRAND, allResults, type StoredResult as Result, recomputeFigures } from "../helpers/recompute.ts";

const DAY = 86_400_000;

const brand = ANALYTICS_BRAND;
const recompute = (results: Result[]) =>
  recomputeFigures(
    results,
    brand.competitors.map((c) => c.name),
  );

const rules: Remeasurer = async (_ctx, compiled, answer) => measureAnswer(compiled, answer);

describeEachDialect("re-measuring a brand's stored answers", (h) => {
  let t: Tenant;
  let projectId: string;
  let worker: RunningWorker;

  beforeAll(async () => {
    worker = await h.startWorker();
    t = await h.tenant("agency");
    projectId = (await h.call("createProject", { key: t.key, body: brand })).json().id;
    for (let day = 0; day < 3; day++) {
      if (day > 0) h.clock.advance(5 * DAY);
      const res = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, engines: ["sandbox"], samples: 4 + day, wait: 30 },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  const period = () => {
    const to = h.clock.now();
    return { from: new Date(to.getTime() - 20 * DAY).toISOString(), to: to.toISOString() };
  };

  /** The analytics endpoints agree with the answers as GET /v1/results now shows them. */
  async function expectAnalyticsMatchResults() {
    const results = await allResults(h, t, projectId);
    const metrics = (
      await h.call("getProjectMetrics", {
        key: t.key,
        params: { id: projectId },
        query: { ...period(), interval: "day" },
      })
    ).json();
    const expected = recompute(results);
    const { figures, competitors, counts } = metrics.total.overall;
    expect(counts.answers).toBe(results.length);
    expect(figures).toEqual({
      visibility: expected.visibility,
      share_of_voice: expected.share_of_voice,
      average_position: expected.average_position,
      sentiment_score: expected.sentiment_score,
      citation_rate: expected.citation_rate,
      visibility_score: expected.visibility_score,
    });
    expect(
      competitors.map((c: { name: string; mentioned: number }) => ({ name: c.name, mentioned: c.mentioned })),
    ).toEqual(expected.competitors);
    for (const bucket of metrics.series.filter(
      (b: { overall: { counts: { answers: number } } }) => b.overall.counts.answers > 0,
    )) {
      const inDay = results.filter((r) => r.created_at >= bucket.start && r.created_at < bucket.end);
      expect(bucket.overall.figures.visibility).toEqual(recompute(inDay).visibility);
    }
    const prompts = (
      await h.call("getPromptMetrics", { key: t.key, params: { id: projectId }, query: period() })
    ).json();
    for (const row of prompts.data) {
      const own = results.filter((r) => r.prompt === row.prompt && r.engine === row.engine);
      expect(row.figures.visibility).toEqual(recompute(own).visibility);
      expect(row.figures.average_position).toEqual(recompute(own).average_position);
    }
    const sources = (
      await h.call("getProjectSources", { key: t.key, params: { id: projectId }, query: { ...period(), limit: 100 } })
    ).json();
    const citations = results.flatMap((r) => (r.status === "succeeded" ? r.citations : []));
    expect(sources.totals.citations).toBe(citations.length);
    expect(sources.totals.brand).toBe(citations.filter((c) => c.brand).length);
    return { results, metrics };
  }

  /** What counting every answer afresh gives: the rollups emptied and rebuilt by the rebuild job. */
  async function rebuiltMetrics() {
    const query = { ...period(), interval: "day" };
    for (const table of ["result_rollups", "engine_rollups", "source_rollups", "source_totals"] as const)
      await h.deps.db.deleteFrom(table).where("project_id", "=", projectId).execute();
    await h.deps.db.updateTable("results").set({ rolled_up: false }).where("project_id", "=", projectId).execute();
    const job = {
      id: "job_rebuild",
      kind: REBUILD_ROLLUPS_JOB,
      payload: {},
      attempt: 1,
      maxAttempts: 5,
      createdAt: "",
    };
    expect(await rebuildRollupsHandler(h.deps)(job)).toEqual({ status: "succeeded" });
    return (await h.call("getProjectMetrics", { key: t.key, params: { id: projectId }, query })).json();
  }

  async function waitFor(id: string) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await h.call("getRemeasure", { key: t.key, params: { id: projectId, remeasure_id: id } });
      expect(res.statusCode, res.body).toBe(200);
      const remeasure = res.json();
      if (remeasure.status === "completed" || remeasure.status === "failed") return remeasure;
      if (Date.now() > deadline) expect.fail(`remeasure ${id} is still ${remeasure.status}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it("re-measures under the brand's new settings, and the analytics match the results afterwards", async () => {
    const before = await allResults(h, t, projectId);
    expect(before).toHaveLength(3 * (4 + 5 + 6));
    // "Acme" alone no longer counts; "Acme CRM" still does.
    const patched = await h.call("updateProject", { key: t.key, params: { id: projectId }, body: { aliases: [] } });
    expect(patched.statusCode).toBe(200);

    const res = await h.call("remeasureProject", { key: t.key, params: { id: projectId }, body: {} });
    expect(res.statusCode, res.body).toBe(202);
    const queued = res.json();
    expect(queued).toMatchObject({
      object: "remeasure",
      project_id: projectId,
      status: "queued",
      total: before.length,
      done: 0,
      score_version: SCORE_VERSION,
      from: null,
      to: null,
      completed_at: null,
    });
    expect(queued.id).toMatch(/^rem_/);
    const finished = await waitFor(queued.id);
    expect(finished).toMatchObject({ status: "completed", done: before.length, total: before.length });
    expect(finished.changed).toBeGreaterThan(0);

    const { results } = await expectAnalyticsMatchResults();
    const byId = new Map(before.map((r) => [r.id, r]));
    const lost = results.filter((r) => byId.get(r.id)?.brand?.mentioned === true && r.brand?.mentioned === false);
    expect(lost.length).toBeGreaterThan(0);
    expect(finished.changed).toBeGreaterThanOrEqual(lost.length);
    expect(results.every((r) => r.score_version === SCORE_VERSION)).toBe(true);

    // The analyses' summaries follow their answers.
    const analyses = (await h.call("listAnalyses", { key: t.key, query: { project_id: projectId } })).json();
    for (const analysis of analyses.data) {
      const own = results.filter((r) => (r as unknown as { analysis_id: string }).analysis_id === analysis.id);
      expect(analysis.summary.overall.visibility).toEqual(recompute(own).visibility);
    }

    const list = (await h.call("listRemeasures", { key: t.key, params: { id: projectId } })).json();
    expect(list.data.map((r: { id: string }) => r.id)).toEqual([queued.id]);
  });

  it("never counts an answer twice when a worker crashes mid-way and the job is retried", async () => {
    await worker.stop(1_000);
    await h.call("updateProject", { key: t.key, params: { id: projectId }, body: { aliases: ["Acme"] } });
    const expectedBefore = await rebuiltMetrics();
    // No body at all: every answer.
    const sent = await h.call("remeasureProject", { key: t.key, params: { id: projectId } });
    expect(sent.statusCode, sent.body).toBe(202);
    const queued = sent.json();
    const job = {
      id: queued.id,
      kind: REMEASURE_JOB,
      payload: { remeasure_id: queued.id },
      attempt: 1,
      maxAttempts: 5,
      createdAt: "",
    };

    // A worker that dies in the middle of its third page: two pages are committed, the third is not.
    let measured = 0;
    const crashing: Remeasurer = async (ctx, compiled, answer) => {
      if (++measured > 2 * 7 + 3) throw new Error("worker killed");
      return rules(ctx, compiled, answer);
    };
    await expect(remeasureHandler(h.deps, { pageSize: 7, measure: crashing })(job)).rejects.toThrow("worker killed");
    const midway = (
      await h.call("getRemeasure", { key: t.key, params: { id: projectId, remeasure_id: queued.id } })
    ).json();
    expect(midway).toMatchObject({ status: "running", done: 14 });

    // The retry resumes after the last committed page; a further retry finds nothing to do.
    expect(await remeasureHandler(h.deps, { pageSize: 7, measure: rules })({ ...job, attempt: 2 })).toEqual({
      status: "succeeded",
    });
    expect(await remeasureHandler(h.deps, { pageSize: 7, measure: rules })({ ...job, attempt: 3 })).toEqual({
      status: "succeeded",
    });
    const finished = (
      await h.call("getRemeasure", { key: t.key, params: { id: projectId, remeasure_id: queued.id } })
    ).json();
    expect(finished).toMatchObject({ status: "completed", done: queued.total });
    expect(finished.changed).toBeGreaterThan(0);

    const { metrics } = await expectAnalyticsMatchResults();
    // Exactly what counting every answer afresh gives.
    const rebuilt = await rebuiltMetrics();
    expect(metrics.total).toEqual(rebuilt.total);
    expect(metrics.series).toEqual(rebuilt.series);
    expect(rebuilt.total.overall.counts).not.toEqual(expectedBefore.total.overall.counts);
  });

  it("limits to [from, to), refuses a second one while one is under way, and bad input", async () => {
    const now = h.clock.now();
    const from = new Date(now.getTime() - 2 * DAY).toISOString();
    const res = await h.call("remeasureProject", { key: t.key, params: { id: projectId }, body: { from } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ from, to: null, total: brand.prompts.length * 6 });

    const again = await h.call("remeasureProject", { key: t.key, params: { id: projectId }, body: {} });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe("VALIDATION_ERROR");
    expect(again.json().error.details[0].remeasure_id).toBe(res.json().id);

    const other = await h.tenant("agency");
    const otherProject = (await h.call("createProject", { key: other.key, body: brand })).json().id;
    for (const body of [
      { from: "yesterday" },
      { from: "2026-11-10", to: "2026-11-01" },
      { since: "2026-11-01" },
      { from: 5 },
    ]) {
      const bad = await h.call("remeasureProject", { key: other.key, params: { id: otherProject }, body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().error.code).toBe("VALIDATION_ERROR");
    }
    expect(
      await h.deps.db.selectFrom("remeasures").select("id").where("project_id", "=", otherProject).execute(),
    ).toEqual([]);

    // Another workspace's brand and re-measure are not found, and nothing is queued for them.
    const foreign = await h.call("remeasureProject", { key: other.key, params: { id: projectId }, body: {} });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("NOT_FOUND");
    const peek = await h.call("getRemeasure", {
      key: other.key,
      params: { id: projectId, remeasure_id: res.json().id },
    });
    expect(peek.statusCode).toBe(404);
    const crossed = await h.call("getRemeasure", {
      key: other.key,
      params: { id: otherProject, remeasure_id: res.json().id },
    });
    expect(crossed.statusCode).toBe(404);
    expect((await h.call("listRemeasures", { key: other.key, params: { id: projectId } })).statusCode).toBe(404);
    expect(
      (await h.call("getRemeasure", { key: t.key, params: { id: projectId, remeasure_id: "rem_nope" } })).statusCode,
    ).toBe(404);
  });
});
