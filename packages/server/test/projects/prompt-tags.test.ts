import { beforeAll, describe, expect, it } from "vitest";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { ANALYTICS_BRAND, allResults, recomputeFigures, type StoredResult } from "../helpers/recompute.ts";

const DAY = 86_400_000;
const brand = ANALYTICS_BRAND;
const [first, second, third] = brand.prompts as [string, string, string];
const recompute = (results: StoredResult[]) =>
  recomputeFigures(
    results,
    brand.competitors.map((c) => c.name),
  );

async function project(h: Harness, t: Tenant, body: Record<string, unknown>) {
  const res = await h.call("createProject", { key: t.key, body: { ...brand, ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describeEachDialect("prompt tags and paused prompts", (h) => {
  describe("as project fields", () => {
    it("stores tags cleaned, under the prompt's own spelling, and pauses; GET and PATCH round-trip them", async () => {
      const t = await h.tenant("growth");
      const created = await project(h, t, {
        prompt_tags: {
          [first.toUpperCase()]: [" Persona:Founder ", "funnel:awareness", "persona:founder"],
          [third]: ["Topic: Pricing"],
          [second]: [],
        },
        paused_prompts: [`  ${second} `],
        category: "  CRM for   small agencies ",
      });
      expect(created.prompt_tags).toEqual({
        [first]: ["persona:founder", "funnel:awareness"],
        [third]: ["topic: pricing"],
      });
      expect(created.paused_prompts).toEqual([second]);
      expect(created.category).toBe("CRM for small agencies");
      const read = (await h.call("getProject", { key: t.key, params: { id: created.id } })).json();
      expect(read).toEqual(created);

      // Replaced whole; a prompt removed from `prompts` takes its tags and its pause with it.
      const patch = (body: Record<string, unknown>) =>
        h.call("updateProject", { key: t.key, params: { id: created.id }, body });
      const retagged = (await patch({ prompt_tags: { [second]: ["funnel:decision"] } })).json();
      expect(retagged.prompt_tags).toEqual({ [second]: ["funnel:decision"] });
      expect(retagged.paused_prompts).toEqual([second]);
      const fewer = (await patch({ prompts: [first, third] })).json();
      expect(fewer.prompt_tags).toEqual({});
      expect(fewer.paused_prompts).toEqual([]);
      // Prompts and their tags in one request; a new spelling of a prompt keeps its tags.
      const both = (await patch({ prompts: [first, second], prompt_tags: { [second]: ["a"] } })).json();
      expect(both.prompt_tags).toEqual({ [second]: ["a"] });
      const respelled = (await patch({ prompts: [first, second.toUpperCase()] })).json();
      expect(respelled.prompt_tags).toEqual({ [second.toUpperCase()]: ["a"] });
      const cleared = (await patch({ category: null, paused_prompts: [first] })).json();
      expect(cleared.category).toBeNull();
      expect(cleared.paused_prompts).toEqual([first]);

      // Every change is in project.updated's previous attributes; a PATCH that changes nothing emits nothing.
      const events = await h.deps.db
        .selectFrom("events")
        .select(["type", "data"])
        .where("workspace_id", "=", t.workspace.id)
        .where("type", "=", "project.updated")
        .execute();
      expect(events).toHaveLength(5);
      const same = await patch({ paused_prompts: [first.toUpperCase()] });
      expect(same.statusCode).toBe(200);
      expect(await h.count("events", t.workspace.id)).toBe(6);
    });

    it("refuses tags and pauses of prompts the project does not track, and malformed tags, changing nothing", async () => {
      const t = await h.tenant("growth");
      const created = await project(h, t, { prompt_tags: { [first]: ["persona:cto"] } });
      const bad: [Record<string, unknown>, string, RegExp][] = [
        [{ prompt_tags: { "best ERP": ["x"] } }, "prompt_tags", /“best ERP” is not one of the project's prompts/],
        [
          { prompt_tags: { [first]: ["no!"] } },
          "prompt_tags",
          /the tag “no!” of “best CRM for a small agency” may hold only/,
        ],
        [{ prompt_tags: { [first]: ["   "] } }, "prompt_tags", /must not be empty/],
        [
          { prompt_tags: { [first]: Array.from({ length: 11 }, (_, i) => `t${i}`) } },
          "prompt_tags.best CRM for a small agency",
          /more than 10/,
        ],
        [{ prompt_tags: { [first]: ["x".repeat(41)] } }, "prompt_tags.best CRM for a small agency[0]", /40/],
        [{ paused_prompts: ["best ERP"] }, "paused_prompts[0]", /“best ERP” is not one of the project's prompts/],
        [{ prompts: [second], prompt_tags: { [first]: ["a"] } }, "prompt_tags", /not one of the project's prompts/],
        [{ category: "" }, "category", /./],
        [{ category: "   " }, "category", /must not be empty/],
        [{ prompt_tags: ["a"] }, "prompt_tags", /./],
      ];
      for (const [body, field, issue] of bad) {
        const res = await h.call("updateProject", { key: t.key, params: { id: created.id }, body });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        const error = res.json().error;
        expect(error.code).toBe("VALIDATION_ERROR");
        expect(
          error.details.map((d: { field: string }) => d.field),
          JSON.stringify(body),
        ).toContain(field);
        expect(error.details.map((d: { issue: string }) => d.issue).join(" ")).toMatch(issue);
      }
      const create = await h.call("createProject", {
        key: t.key,
        body: { ...brand, name: "Other", paused_prompts: ["not tracked"] },
      });
      expect(create.statusCode).toBe(400);
      const after = (await h.call("getProject", { key: t.key, params: { id: created.id } })).json();
      expect(after).toEqual(created);
    });
  });

  describe("paused prompts", () => {
    it("are not asked by an analysis that takes the project's prompts, nor by monitoring", async () => {
      const t = await h.tenant("growth");
      const created = await project(h, t, { paused_prompts: [second] });
      const analysis = await h.call("analyze", { key: t.key, body: { project_id: created.id, engines: ["sandbox"] } });
      expect(analysis.statusCode, analysis.body).toBe(202);
      expect(analysis.json().prompts).toEqual([first, third]);
      expect(analysis.json().progress.total).toBe(2);
      // Sent by hand, a paused prompt is asked as sent.
      const byHand = await h.call("analyze", {
        key: t.key,
        body: { project_id: created.id, engines: ["sandbox"], prompts: [second] },
      });
      expect(byHand.json().prompts).toEqual([second]);

      // Monitoring: the project's prompts, and even a schedule that names the paused one.
      for (const prompts of [null, [second, third]]) {
        const schedule = (
          await h.call("createMonitoring", {
            key: t.key,
            body: { project_id: created.id, schedule: { every: "day" }, ...(prompts === null ? {} : { prompts }) },
          })
        ).json();
        const run = (await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } })).json();
        expect(run.status).toBe("queued");
        const asked = (await h.call("getAnalysis", { key: t.key, params: { id: run.analysis_id } })).json();
        expect(asked.prompts).toEqual(prompts === null ? [first, third] : [third]);
      }

      // Everything paused: an analysis is refused, a monitoring run skipped with the reason.
      await h.call("updateProject", {
        key: t.key,
        params: { id: created.id },
        body: { paused_prompts: brand.prompts },
      });
      const refused = await h.call("analyze", { key: t.key, body: { project_id: created.id, engines: ["sandbox"] } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.details[0]).toMatchObject({
        field: "prompts",
        issue: expect.stringMatching(/paused/),
      });
      const schedule = (
        await h.call("createMonitoring", { key: t.key, body: { project_id: created.id, schedule: { every: "day" } } })
      ).json();
      const skipped = (await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } })).json();
      expect(skipped.status).toBe("skipped");
      expect(skipped.skip_reason).toMatch(/paused/);
    });
  });

  describe("tag= on the analytics", () => {
    let t: Tenant;
    let projectId: string;
    let results: StoredResult[];
    const TAGS = {
      [first]: ["persona:founder", "everything"],
      [second]: ["funnel:awareness", "everything"],
      [third]: ["persona:founder", "everything"],
    };
    const tagged = (tag: string) => results.filter((r) => (TAGS[r.prompt] ?? []).includes(tag));

    beforeAll(async () => {
      await h.startWorker();
      t = await h.tenant("agency");
      projectId = (await project(h, t, { prompt_tags: TAGS })).id;
      for (let day = 0; day < 2; day++) {
        if (day > 0) h.clock.advance(5 * DAY);
        const res = await h.call("analyze", {
          key: t.key,
          body: { project_id: projectId, engines: ["sandbox"], samples: 3 + day, wait: 30 },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      results = await allResults(h, t, projectId);
    });

    const period = (days = 20) => {
      const to = h.clock.now();
      return { from: new Date(to.getTime() - days * DAY).toISOString(), to: to.toISOString() };
    };
    const get = async (operationId: string, query: Record<string, string | number>) => {
      const res = await h.call(operationId, { key: t.key, params: { id: projectId }, query });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };

    it("gives the figures of the tagged prompts' answers, as recomputed from GET /v1/results", async () => {
      const mine = tagged("persona:founder");
      expect(mine).toHaveLength(2 * (3 + 4));
      const metrics = await get("getProjectMetrics", { ...period(), tag: "Persona:Founder" });
      const expected = recompute(mine);
      expect(metrics.total.overall.counts.answers).toBe(mine.length);
      expect(metrics.total.overall.figures).toEqual({
        visibility: expected.visibility,
        share_of_voice: expected.share_of_voice,
        average_position: expected.average_position,
        sentiment_score: expected.sentiment_score,
        citation_rate: expected.citation_rate,
        visibility_score: expected.visibility_score,
      });
      expect(metrics.total.overall.competitors.map((c: { name: string; mentioned: number }) => c.mentioned)).toEqual(
        expected.competitors.map((c) => c.mentioned),
      );
      for (const bucket of metrics.series) {
        const inBucket = mine.filter((r) => r.created_at >= bucket.start && r.created_at < bucket.end);
        expect(bucket.overall.counts.answers).toBe(inBucket.length);
        expect(bucket.overall.figures.visibility).toEqual(recompute(inBucket).visibility);
      }
      // The period before holds the first day's answers of these prompts.
      const recent = await get("getProjectMetrics", { ...period(4), tag: "persona:founder" });
      const firstDay = mine.filter((r) => r.created_at < recent.from);
      expect(recent.previous.overall.counts.answers).toBe(firstDay.length);
      expect(recent.previous.overall.figures.visibility).toEqual(recompute(firstDay).visibility);

      const prompts = await get("getPromptMetrics", { ...period(), tag: "persona:founder" });
      expect(prompts.data.map((row: { prompt: string }) => row.prompt).sort()).toEqual([first, third].sort());
      for (const row of prompts.data) {
        expect(row.figures.visibility).toEqual(recompute(mine.filter((r) => r.prompt === row.prompt)).visibility);
      }

      const board = await get("getCompetitorLeaderboard", { ...period(), tag: "persona:founder" });
      expect(board.data.find((row: { is_brand: boolean }) => row.is_brand).visibility).toEqual(expected.visibility);
      for (const competitor of expected.competitors) {
        expect(board.data.find((row: { name: string }) => row.name === competitor.name).mentioned).toBe(
          competitor.mentioned,
        );
      }

      const sources = await get("getProjectSources", { ...period(), tag: "persona:founder", limit: 100 });
      const citations = mine.flatMap((r) => (r.status === "succeeded" ? r.citations : []));
      expect(citations.length).toBeGreaterThan(0);
      expect(sources.totals).toEqual({
        citations: citations.length,
        brand: citations.filter((c) => c.brand).length,
        competitor: citations.filter((c) => !c.brand && c.competitor !== null).length,
        other: citations.filter((c) => !c.brand && c.competitor === null).length,
      });
      for (const domain of sources.domains) {
        expect(domain.citations).toBe(citations.filter((c) => c.domain === domain.domain).length);
      }
      for (const url of sources.urls) expect(url.citations).toBe(citations.filter((c) => c.url === url.url).length);

      const searches = await get("getProjectSearches", { ...period(), tag: "persona:founder" });
      expect(searches.totals.answers).toBe(mine.filter((r) => r.status === "succeeded").length);
      const suggestions = await get("getCompetitorSuggestions", { ...period(), tag: "persona:founder" });
      expect(suggestions.scanned).toBe(mine.filter((r) => r.status === "succeeded").length);

      const listed = await h.call("listResults", {
        key: t.key,
        query: { project_id: projectId, tag: "persona:founder", limit: 100 },
      });
      expect(
        listed
          .json()
          .data.map((r: { id: string }) => r.id)
          .sort(),
      ).toEqual(mine.map((r) => r.id).sort());
    });

    it("reads the same from the answers as from the rollups: a tag on every prompt changes nothing", async () => {
      for (const days of [20, 4]) {
        for (const operationId of [
          "getProjectMetrics",
          "getPromptMetrics",
          "getCompetitorLeaderboard",
          "getProjectSources",
          "getProjectSearches",
          "getCompetitorSuggestions",
        ]) {
          const query = operationId === "getProjectSources" ? { ...period(days), limit: 100 } : period(days);
          const all = await get(operationId, query);
          const everything = await get(operationId, { ...query, tag: "everything" });
          expect(everything, `${operationId}, ${days} days`).toEqual(all);
        }
      }
    });

    it("keeps nothing for a tag no prompt carries, and refuses a malformed one", async () => {
      const none = await get("getProjectMetrics", { ...period(), tag: "persona:nobody" });
      expect(none.total.overall.counts.answers).toBe(0);
      expect(none.previous.overall.counts.answers).toBe(0);
      expect((await get("getPromptMetrics", { ...period(), tag: "nobody" })).data).toEqual([]);
      expect((await get("getProjectSources", { ...period(), tag: "nobody" })).totals.citations).toBe(0);
      expect((await get("getProjectSearches", { ...period(), tag: "nobody" })).totals.answers).toBe(0);
      expect((await get("getCompetitorSuggestions", { ...period(), tag: "nobody" })).scanned).toBe(0);
      const board = await get("getCompetitorLeaderboard", { ...period(), tag: "nobody" });
      expect(board.data.every((row: { mentioned: number }) => row.mentioned === 0)).toBe(true);
      const listed = await h.call("listResults", { key: t.key, query: { project_id: projectId, tag: "nobody" } });
      expect(listed.json()).toEqual({ data: [], has_more: false, next_cursor: null });

      for (const operationId of [
        "getProjectMetrics",
        "getPromptMetrics",
        "getCompetitorLeaderboard",
        "getProjectSources",
        "getProjectSearches",
        "getCompetitorSuggestions",
      ]) {
        for (const tag of ["no!", "x".repeat(41), ""]) {
          const res = await h.call(operationId, { key: t.key, params: { id: projectId }, query: { tag } });
          expect(res.statusCode, `${operationId} tag=${tag}`).toBe(400);
          expect(res.json().error.code).toBe("VALIDATION_ERROR");
          expect(res.json().error.details[0].field).toBe("tag");
        }
      }
      const orphan = await h.call("listResults", { key: t.key, query: { tag: "everything" } });
      expect(orphan.statusCode).toBe(400);
      expect(orphan.json().error.details[0].field).toBe("tag");
      // Another workspace's project: nothing, as for any project_id it does not own.
      const other = await h.tenant("agency");
      const foreign = await h.call("listResults", {
        key: other.key,
        query: { project_id: projectId, tag: "everything" },
      });
      expect(foreign.json().data).toEqual([]);
      const hidden = await h.call("getProjectMetrics", {
        key: other.key,
        params: { id: projectId },
        query: { tag: "everything" },
      });
      expect(hidden.statusCode).toBe(404);
    });
  });
});
