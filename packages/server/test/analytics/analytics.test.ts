import { beforeAll, expect, it } from "vitest";
import { REBUILD_ROLLUPS_JOB, rebuildRollupsHandler } from "../../src/services/analytics/rebuild.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";
import { ANALYTICS_BRAND, allResults, type StoredResult as Result, recomputeFigures } from "../helpers/recompute.ts";

const DAY = 86_400_000;

const brand = ANALYTICS_BRAND;
const recompute = (results: Result[]) =>
  recomputeFigures(
    results,
    brand.competitors.map((c) => c.name),
  );

describeEachDialect("the analytics API", (h) => {
  let t: Tenant;
  let projectId: string;
  let results: Result[];

  beforeAll(async () => {
    await h.startWorker();
    t = await h.tenant("agency");
    projectId = (await h.call("createProject", { key: t.key, body: brand })).json().id;
    // Three days of answers, five days apart (so that periods hold whole weeks and parts of weeks).
    for (let day = 0; day < 3; day++) {
      if (day > 0) h.clock.advance(5 * DAY);
      const res = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, engines: ["sandbox"], samples: 4 + day, wait: 30 },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    results = await allResults(h, t, projectId);
  });

  const period = () => {
    const to = h.clock.now();
    return { from: new Date(to.getTime() - 20 * DAY).toISOString(), to: to.toISOString() };
  };

  it("gives the same figures as recomputing the answers from GET /v1/results, in total and per day", async () => {
    expect(results).toHaveLength(3 * (4 + 5 + 6));
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
    const days = metrics.series.filter(
      (bucket: { overall: { counts: { answers: number } } }) => bucket.overall.counts.answers > 0,
    );
    expect(days).toHaveLength(3);
    for (const bucket of days) {
      const inDay = results.filter((r) => r.created_at >= bucket.start && r.created_at < bucket.end);
      expect(bucket.overall.figures.visibility).toEqual(recompute(inDay).visibility);
      expect(bucket.by_engine.sandbox.figures.share_of_voice).toEqual(recompute(inDay).share_of_voice);
    }
    // Twenty days back from midday: the twenty-one days it touches, each a bucket, empty ones too.
    expect(metrics.series).toHaveLength(21);
    // A week is the week's answers, not an average of its days' ratios.
    const weekly = (
      await h.call("getProjectMetrics", {
        key: t.key,
        params: { id: projectId },
        query: { ...period(), interval: "week" },
      })
    ).json();
    const summed = weekly.series.reduce(
      (sum: number, bucket: { overall: { counts: { answers: number } } }) => sum + bucket.overall.counts.answers,
      0,
    );
    expect(summed).toBe(results.length);
  });

  it("gives each prompt's figures, each competitor's standing and the sources, as the answers say", async () => {
    const prompts = (
      await h.call("getPromptMetrics", { key: t.key, params: { id: projectId }, query: period() })
    ).json();
    expect(prompts.data).toHaveLength(brand.prompts.length);
    for (const row of prompts.data) {
      const own = results.filter((r) => r.prompt === row.prompt && r.engine === row.engine);
      expect(row.figures.visibility).toEqual(recompute(own).visibility);
      expect(row.figures.average_position).toEqual(recompute(own).average_position);
    }
    const filtered = (
      await h.call("getProjectMetrics", {
        key: t.key,
        params: { id: projectId },
        query: { ...period(), prompt: brand.prompts[1] ?? "" },
      })
    ).json();
    expect(filtered.total.overall.figures.visibility).toEqual(
      recompute(results.filter((r) => r.prompt === brand.prompts[1])).visibility,
    );

    const board = (
      await h.call("getCompetitorLeaderboard", { key: t.key, params: { id: projectId }, query: period() })
    ).json();
    expect(board.data.map((row: { name: string }) => row.name).sort()).toEqual(["Acme CRM", "HubSpot", "Pipedrive"]);
    const expected = recompute(results);
    const own = board.data.find((row: { is_brand: boolean }) => row.is_brand);
    expect(own.visibility).toEqual(expected.visibility);
    for (const competitor of expected.competitors) {
      expect(board.data.find((row: { name: string }) => row.name === competitor.name).mentioned).toBe(
        competitor.mentioned,
      );
    }

    const sources = (
      await h.call("getProjectSources", { key: t.key, params: { id: projectId }, query: { ...period(), limit: 100 } })
    ).json();
    const citations = results.flatMap((r) => (r.status === "succeeded" ? r.citations : []));
    expect(sources.totals).toEqual({
      citations: citations.length,
      brand: citations.filter((c) => c.brand).length,
      competitor: citations.filter((c) => !c.brand && c.competitor !== null).length,
      other: citations.filter((c) => !c.brand && c.competitor === null).length,
    });
    for (const domain of sources.domains) {
      expect(domain.citations).toBe(citations.filter((c) => c.domain === domain.domain).length);
      expect(domain.series.reduce((sum: number, point: { citations: number }) => sum + point.citations, 0)).toBe(
        domain.citations,
      );
      expect(domain.category).toBe(citations.find((c) => c.domain === domain.domain)?.category);
    }
    // Citation categories: each citation counted once, as the results class it, and a filter by category.
    const byCategory: Record<string, number> = {};
    for (const c of citations) byCategory[c.category] = (byCategory[c.category] ?? 0) + 1;
    for (const [category, n] of Object.entries(sources.categories)) expect(n, category).toBe(byCategory[category] ?? 0);
    expect(byCategory.owned ?? 0).toBe(sources.totals.brand);
    for (const category of ["owned", "other"]) {
      const only = (
        await h.call("getProjectSources", {
          key: t.key,
          params: { id: projectId },
          query: { ...period(), limit: 100, category },
        })
      ).json();
      expect(only.categories).toEqual(sources.categories);
      expect(only.domains.every((d: { category: string }) => d.category === category)).toBe(true);
      expect(only.urls.every((u: { category: string }) => u.category === category)).toBe(true);
      expect(only.domains.reduce((sum: number, d: { citations: number }) => sum + d.citations, 0)).toBe(
        byCategory[category] ?? 0,
      );
    }
    const bad = await h.call("getProjectSources", {
      key: t.key,
      params: { id: projectId },
      query: { ...period(), category: "gossip" },
    });
    expect(bad.statusCode).toBe(400);

    // The project's own categories apply at once, without re-measuring.
    const set = (citation_categories: { domain: string; category: string }[]) =>
      h.call("updateProject", { key: t.key, params: { id: projectId }, body: { citation_categories } });
    expect((await set([{ domain: "reddit.com", category: "news" }])).statusCode).toBe(200);
    const overridden = (
      await h.call("getProjectSources", { key: t.key, params: { id: projectId }, query: { ...period(), limit: 100 } })
    ).json();
    const reddit = citations.filter((c) => c.domain === "reddit.com").length;
    expect(overridden.categories.news).toBe((byCategory.news ?? 0) + reddit);
    expect(overridden.categories.social).toBe((byCategory.social ?? 0) - reddit);
    for (const d of overridden.domains.filter((d: { domain: string }) => d.domain === "reddit.com"))
      expect(d.category).toBe("news");
    expect((await set([])).statusCode).toBe(200);
  });

  it("counts a period that cuts weeks in parts exactly: its whole weeks and the days around them", async () => {
    // Every start from 12 to 3 days back: the answers of the days in, whatever the weekday.
    const now = h.clock.now();
    for (let back = 12; back >= 3; back--) {
      const from = new Date(now.getTime() - back * DAY);
      const fromDay = from.toISOString().slice(0, 10);
      const query = { from: from.toISOString(), to: now.toISOString() };
      const inPeriod = results.filter((r) => r.created_at.slice(0, 10) >= fromDay);
      const prompts = (await h.call("getPromptMetrics", { key: t.key, params: { id: projectId }, query })).json();
      const answers = prompts.data.reduce(
        (sum: number, row: { counts: { answers: number } }) => sum + row.counts.answers,
        0,
      );
      expect(answers, `from ${fromDay}`).toBe(inPeriod.length);
      for (const row of prompts.data) {
        const own = inPeriod.filter((r) => r.prompt === row.prompt && r.engine === row.engine);
        expect(row.figures.visibility).toEqual(recompute(own).visibility);
      }
      const sources = (await h.call("getProjectSources", { key: t.key, params: { id: projectId }, query })).json();
      expect(sources.totals.citations, `from ${fromDay}`).toBe(
        inPeriod.flatMap((r) => (r.status === "succeeded" ? r.citations : [])).length,
      );
    }
  });

  it("compares with the period before: nothing before, then the change, marked real only when the intervals part", async () => {
    const now = h.clock.now();
    // The last six days (two of the days with answers), against the six days before (the first).
    const lastDay = (
      await h.call("getProjectMetrics", {
        key: t.key,
        params: { id: projectId },
        query: { from: new Date(now.getTime() - 5 * DAY).toISOString(), to: now.toISOString() },
      })
    ).json();
    expect(lastDay.total.overall.counts.answers).toBe(brand.prompts.length * (5 + 6));
    expect(lastDay.previous.overall.counts.answers).toBeGreaterThan(0);
    const change = lastDay.changes.visibility;
    expect(change.delta).toBeCloseTo((change.current ?? 0) - (change.previous ?? 0), 4);
    const a = lastDay.total.overall.figures.visibility;
    const b = lastDay.previous.overall.figures.visibility;
    expect(change.significant).toBe(a.ci_high < b.ci_low || a.ci_low > b.ci_high);
  });

  it("counts answers stored before rollups existed, once, through the rebuild job", async () => {
    const query = { ...period(), interval: "day" };
    const before = (await h.call("getProjectMetrics", { key: t.key, params: { id: projectId }, query })).json();
    // As an installation upgraded from before rollups: answers stored, nothing counted.
    for (const table of ["result_rollups", "engine_rollups", "source_rollups", "source_totals"] as const)
      await h.deps.db.deleteFrom(table).where("project_id", "=", projectId).execute();
    await h.deps.db.updateTable("results").set({ rolled_up: false }).where("project_id", "=", projectId).execute();
    const emptied = (await h.call("getProjectMetrics", { key: t.key, params: { id: projectId }, query })).json();
    expect(emptied.total.overall.counts.answers).toBe(0);
    const rebuild = rebuildRollupsHandler(h.deps);
    const job = {
      id: "job_rebuild",
      kind: REBUILD_ROLLUPS_JOB,
      payload: {},
      attempt: 1,
      maxAttempts: 5,
      createdAt: "",
    };
    expect(await rebuild(job)).toEqual({ status: "succeeded" });
    // A second run (a retried job) counts nothing twice.
    expect(await rebuild(job)).toEqual({ status: "succeeded" });
    const after = (await h.call("getProjectMetrics", { key: t.key, params: { id: projectId }, query })).json();
    expect(after.total).toEqual(before.total);
    expect(after.series).toEqual(before.series);
  });

  it("refuses what does not make sense, and another workspace's brand", async () => {
    const bad: Record<string, string>[] = [
      { from: "2026-13-01" },
      { from: "2026-11-10", to: "2026-11-01" },
      { from: "2020-01-01", to: "2026-01-01" },
      { interval: "year" },
    ];
    for (const query of bad) {
      const res = await h.call("getProjectMetrics", { key: t.key, params: { id: projectId }, query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
    }
    const growth = await h.tenant("growth");
    const notAllowed = await h.call("getProjectMetrics", {
      key: growth.key,
      params: { id: projectId },
      query: { engine: "claude" },
    });
    expect(notAllowed.json().error.code).toBe("ENGINE_NOT_ALLOWED");
    const other = await h.call("getProjectMetrics", { key: growth.key, params: { id: projectId } });
    expect(other.statusCode).toBe(404);
  });
});
