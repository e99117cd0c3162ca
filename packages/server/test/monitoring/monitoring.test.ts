import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schedulerTick } from "../../src/app/scheduler.ts";
import type { RunningWorker } from "../../src/app/worker.ts";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { latestSlot, nextSlot } from "../../src/services/monitoring/schedule-spec.ts";
import { DEFAULT_PLANS } from "../../src/services/plans/catalog.ts";
import { weekStart } from "../../src/services/reports/generate.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";
import { Receiver } from "../helpers/receiver.ts";
import { ScriptedVendor } from "../helpers/scripted-vendor.ts";

const DAY = 86_400_000;

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function runsOf(h: Harness, scheduleId: string) {
  return h.deps.db
    .selectFrom("monitoring_runs")
    .selectAll()
    .where("schedule_id", "=", scheduleId)
    .orderBy("created_at")
    .execute();
}

/** Waits until no analysis of the workspace is queued or running. */
async function settle(h: Harness, workspaceId: string) {
  await until(
    () =>
      h.deps.db
        .selectFrom("analyses")
        .select("status")
        .where("workspace_id", "=", workspaceId)
        .where("status", "in", ["queued", "running"])
        .execute(),
    (rows) => rows.length === 0,
  );
}

describe("schedule slots", () => {
  it("follow the time zone across daylight-saving changes", () => {
    // 09:00 in New York is 14:00 UTC in winter and 13:00 UTC in summer (DST began 2026-03-08).
    const before = nextSlot("0 9 * * *", "America/New_York", new Date("2026-03-07T15:00:00Z"));
    const after = nextSlot("0 9 * * *", "America/New_York", before);
    expect(before.toISOString()).toBe("2026-03-08T13:00:00.000Z");
    expect(nextSlot("0 9 * * *", "America/New_York", new Date("2026-03-06T15:00:00Z")).toISOString()).toBe(
      "2026-03-07T14:00:00.000Z",
    );
    expect(after.toISOString()).toBe("2026-03-09T13:00:00.000Z");
    // 02:30 does not exist on 2026-03-08 in New York: that day's run is at 03:30 EDT, then 02:30 again.
    const spring = nextSlot("30 2 * * *", "America/New_York", new Date("2026-03-07T12:00:00Z"));
    expect(spring.toISOString()).toBe("2026-03-08T07:30:00.000Z");
    expect(nextSlot("30 2 * * *", "America/New_York", spring).toISOString()).toBe("2026-03-09T06:30:00.000Z");
    // 01:30 happens twice on 2026-11-01: one run, at the first.
    const fall = nextSlot("30 1 * * *", "America/New_York", new Date("2026-10-31T12:00:00Z"));
    expect(fall.toISOString()).toBe("2026-11-01T05:30:00.000Z");
    expect(nextSlot("30 1 * * *", "America/New_York", fall).toISOString()).toBe("2026-11-02T06:30:00.000Z");
    expect(latestSlot("0 9 * * *", "Europe/Paris", new Date("2026-10-25T12:00:00Z")).toISOString()).toBe(
      "2026-10-25T08:00:00.000Z",
    );
    expect(latestSlot("0 9 * * *", "Europe/Paris", new Date("2026-10-24T12:00:00Z")).toISOString()).toBe(
      "2026-10-24T07:00:00.000Z",
    );
  });
});

describeEachDialect(
  "monitoring schedules",
  (h) => {
    let receiver: Receiver;
    let worker: RunningWorker;
    const engine = new ScriptedVendor();
    beforeAll(async () => {
      await engine.start(h);
      receiver = await new Receiver().start();
      worker = await h.startWorker(undefined, { pollIntervalMs: 20 });
    });
    afterAll(async () => {
      await worker.stop(1_000);
      await receiver.stop();
      await engine.stop();
    });

    async function setup(plan: "agency" | "growth" = "agency", engines = ["sandbox"]) {
      const t = await h.tenant(plan);
      const project = (
        await h.call("createProject", {
          key: t.key,
          body: {
            name: "Acme CRM",
            primary_domain: "acmecrm.com",
            competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }, { name: "Pipedrive" }],
            prompts: ["best CRM?", "CRM for agencies?"],
            engines,
          },
        })
      ).json();
      return { t, project };
    }

    it("runs a daily schedule exactly once a day over 30 simulated days, with two schedulers racing", async () => {
      const { t, project } = await setup();
      const start = h.clock.now();
      const created = await h.call("createMonitoring", {
        key: t.key,
        body: { project_id: project.id, schedule: { every: "day", at: "06:00" } },
      });
      expect(created.statusCode, created.body).toBe(201);
      const schedule = created.json();
      expect(Date.parse(schedule.next_run_at)).toBeGreaterThan(start.getTime());
      try {
        for (let hour = 0; hour < 30 * 24; hour += 3) {
          h.clock.set(start.getTime() + hour * 3_600_000);
          await Promise.all([schedulerTick(h.deps), schedulerTick(h.deps)]);
        }
        await settle(h, t.workspace.id);
        const runs = (await runsOf(h, schedule.id)).filter((r) => r.schedule_id === schedule.id);
        const slots = runs.map((r) => r.slot);
        expect(new Set(slots).size).toBe(slots.length);
        expect(runs).toHaveLength(30);
        for (const slot of slots) expect(slot.slice(11, 16)).toBe("06:00");
        expect(runs.every((r) => r.status === "completed")).toBe(true);
      } finally {
        h.clock.set(start.getTime() + 31 * DAY);
      }
    });

    it("after a three-day outage runs once to catch up, not once per missed day", async () => {
      const { t, project } = await setup();
      const schedule = (
        await h.call("createMonitoring", { key: t.key, body: { project_id: project.id, schedule: { every: "day" } } })
      ).json();
      h.clock.set(Date.parse(schedule.next_run_at) + 3 * DAY + 3_600_000);
      expect(await schedulerTick(h.deps)).toBeGreaterThanOrEqual(1);
      await schedulerTick(h.deps);
      await settle(h, t.workspace.id);
      const runs = await runsOf(h, schedule.id);
      expect(runs).toHaveLength(1);
      const after = (await h.call("getMonitoring", { key: t.key, params: { id: schedule.id } })).json();
      expect(Date.parse(after.next_run_at)).toBeGreaterThan(h.clock.now().getTime());
      expect(after.last_run).toMatchObject({ id: runs[0]?.id, status: "completed" });
      const idle = (
        await h.call("createMonitoring", {
          key: t.key,
          body: { project_id: project.id, schedule: { every: "week" }, active: false },
        })
      ).json();
      const listed = (await h.call("listMonitoring", { key: t.key, query: { project_id: project.id } })).json().data;
      expect(
        listed.map((s: { id: string; last_run: { id: string } | null }) => [s.id, s.last_run?.id ?? null]),
      ).toEqual([
        [idle.id, null],
        [schedule.id, runs[0]?.id],
      ]);
    });

    it("fires an alert once on a real drop, not again while it holds, and again after it clears; delivers both events", async () => {
      const { t, project } = await setup("agency", ["scripted"]);
      await h.call("createWebhook", {
        key: t.key,
        body: { url: `${receiver.url}/monitoring`, events: ["monitoring.completed", "alert.triggered"] },
      });
      const schedule = (
        await h.call("createMonitoring", {
          key: t.key,
          body: {
            project_id: project.id,
            samples: 5,
            schedule: { every: "day" },
            alert_rules: [
              { type: "visibility_below", threshold: 0.5 },
              { type: "visibility_drop", points: 30 },
            ],
          },
        })
      ).json();
      expect(schedule.alert_rules).toEqual([
        { id: "rule_1", type: "visibility_below", threshold: 0.5 },
        { id: "rule_2", type: "visibility_drop", points: 30, require_significance: true },
      ]);
      const runNow = async (mention: boolean) => {
        engine.mentionBrand = mention;
        const run = await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } });
        expect(run.statusCode, run.body).toBe(202);
        await settle(h, t.workspace.id);
        h.clock.advance(60_000);
      };
      const alerts = async () =>
        (await h.call("listAlerts", { key: t.key, query: { schedule_id: schedule.id } })).json().data;

      await runNow(true); // visibility 100%
      expect(await alerts()).toHaveLength(0);
      await runNow(false); // 0%: below the threshold, and a drop of 100 points with disjoint intervals
      const fired = await alerts();
      expect(fired.map((a: { rule: { type: string } }) => a.rule.type).sort()).toEqual([
        "visibility_below",
        "visibility_drop",
      ]);
      await runNow(false); // still 0%: the condition holds; nothing new fires
      expect(await alerts()).toHaveLength(2);
      await runNow(true); // clears
      await runNow(false); // recurs: both fire again
      expect(await alerts()).toHaveLength(4);

      const runs = (await h.call("listMonitoringRuns", { key: t.key, params: { id: schedule.id } })).json().data;
      expect(runs).toHaveLength(5);
      expect(runs[0].change).toMatchObject({ visibility: { current: 0, previous: 1, delta: -1, significant: true } });

      // Deliveries are at least once (and this test's clock jumps past leases): count events, not requests.
      const distinct = () =>
        new Map(receiver.on("/monitoring").map((r) => [String(r.headers["x-webhook-id"]), JSON.parse(r.body)]));
      await until(
        async () => distinct().size,
        (size) => size >= 9,
      );
      const events = [...distinct().values()];
      expect(events.filter((e) => e.type === "monitoring.completed")).toHaveLength(5);
      const alertEvents = events.filter((e) => e.type === "alert.triggered");
      expect(alertEvents).toHaveLength(4);
      expect(alertEvents[0].data.object).toMatchObject({
        schedule_id: schedule.id,
        project_id: project.id,
        observed: 0,
        previous: 1,
      });
      expect(alertEvents[0].data.object.run_id).toMatch(/^run_/);
    });

    it("fires the other rule kinds on the change they watch, per engine when the rule names engines", async () => {
      const { t, project } = await setup("agency", ["scripted"]);
      const schedule = (
        await h.call("createMonitoring", {
          key: t.key,
          body: {
            project_id: project.id,
            schedule: { every: "day" },
            alert_rules: [
              { type: "competitor_overtakes", competitor: "hubspot" },
              { type: "brand_disappeared" },
              { type: "sentiment_below", threshold: 40 },
              { type: "domain_not_cited", engines: ["scripted"] },
            ],
          },
        })
      ).json();
      const run = async (text: string) => {
        engine.say(text);
        await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } });
        await settle(h, t.workspace.id);
        h.clock.advance(60_000);
        const alerts = (await h.call("listAlerts", { key: t.key, query: { schedule_id: schedule.id } })).json().data;
        return alerts.map(
          (a: { rule: { type: string }; engine: string | null }) => `${a.rule.type}@${a.engine ?? "all"}`,
        );
      };

      // Named first, in good terms, its site cited, level with HubSpot: nothing to say.
      expect(
        await run("Acme CRM is excellent and reliable. HubSpot is fine too. See https://acmecrm.com/pricing."),
      ).toEqual([]);
      // Gone, HubSpot alone, the site no longer cited. Sentiment has nothing to judge.
      expect((await run("HubSpot is the usual pick; Pipedrive is also good.")).sort()).toEqual([
        "brand_disappeared@scripted",
        "competitor_overtakes@all",
        "domain_not_cited@scripted",
      ]);
      // Back and cited, HubSpot absent, but in bad terms: only the sentiment rule fires.
      expect((await run("Acme CRM is terrible, slow and buggy. See https://acmecrm.com/pricing.")).sort()).toEqual([
        "brand_disappeared@scripted",
        "competitor_overtakes@all",
        "domain_not_cited@scripted",
        "sentiment_below@all",
      ]);
    });

    it("does not fire a drop that is not statistically real, unless the rule opts out", async () => {
      const { t, project } = await setup("agency", ["scripted"]);
      const schedule = (
        await h.call("createMonitoring", {
          key: t.key,
          body: {
            project_id: project.id,
            prompts: ["one prompt"],
            schedule: { every: "day" },
            alert_rules: [
              { type: "visibility_drop", points: 50 },
              { type: "visibility_drop", points: 50, require_significance: false },
            ],
          },
        })
      ).json();
      for (const mention of [true, false]) {
        engine.mentionBrand = mention;
        await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } });
        await settle(h, t.workspace.id);
        h.clock.advance(60_000);
      }
      // One answer per run: 1/1 then 0/1, intervals overlap; only the rule that opted out fires.
      const alerts = (await h.call("listAlerts", { key: t.key, query: { schedule_id: schedule.id } })).json().data;
      expect(alerts.map((a: { rule: { id: string } }) => a.rule.id)).toEqual(["rule_2"]);
    });

    it("records a run the allowance cannot pay for as skipped, and the next slot still comes", async () => {
      const { t, project } = await setup("growth");
      const schedule = (
        await h.call("createMonitoring", {
          key: t.key,
          body: { project_id: project.id, schedule: { every: "hour" }, samples: 3 },
        })
      ).json();
      h.clock.set(Date.parse(schedule.next_run_at) + 60_000);
      await schedulerTick(h.deps);
      await settle(h, t.workspace.id);
      const [run] = await runsOf(h, schedule.id);
      expect(run).toMatchObject({ status: "skipped", analysis_id: null });
      expect(run?.skip_reason).toContain("BILLING_LIMIT_EXCEEDED");
      const after = (await h.call("getMonitoring", { key: t.key, params: { id: schedule.id } })).json();
      expect(Date.parse(after.next_run_at)).toBeGreaterThan(h.clock.now().getTime());
      expect(after.active).toBe(true);
    });

    it("generates a report for every finished analysis and run, and a weekly digest", async () => {
      const { t, project } = await setup();
      const schedule = (
        await h.call("createMonitoring", { key: t.key, body: { project_id: project.id, schedule: { every: "day" } } })
      ).json();
      await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } });
      const analysis = (await h.call("analyze", { key: t.key, body: { project_id: project.id } })).json();
      await settle(h, t.workspace.id);
      const reports = (await h.call("listReports", { key: t.key, query: { project_id: project.id } })).json().data;
      expect(reports.map((r: { type: string }) => r.type).sort()).toEqual(["analysis", "monitoring_run"]);
      const analysisReport = reports.find((r: { type: string }) => r.type === "analysis");
      expect(analysisReport.analysis_id).toBe(analysis.id);

      const full = (await h.call("getReport", { key: t.key, params: { id: analysisReport.id } })).json();
      const stored = (await h.call("getAnalysis", { key: t.key, params: { id: analysis.id } })).json();
      expect(full.data.summary).toEqual(stored.summary);
      // The answers are referenced, not embedded; the CSV lists them all.
      expect(full.data.results).toBeUndefined();
      expect(full.data).toMatchObject({ result_count: 2, analysis_ids: [analysis.id] });

      const csv = await h.call("getReport", {
        key: t.key,
        params: { id: analysisReport.id },
        query: { format: "csv" },
      });
      expect(csv.headers["content-type"]).toContain("text/csv");
      const lines = csv.body.trim().split("\r\n");
      expect(lines[0]).toBe(
        "result_id,created_at,engine,model,prompt,sample,status,mentioned,position,sentiment,brand_cited,score,cited_domains,competitors_mentioned,cited_domain_categories,surface,searches,sentiment_score,stance,citations,brand_citations,text,error,cost_usd,input_tokens,output_tokens,search_calls,attempts,latency_ms,score_version",
      );
      expect(lines).toHaveLength(3);
      // Each answer's cited domains once, by kind: the report's tally is the CSV's.
      const tally: Record<string, number> = {};
      for (const line of lines.slice(1)) {
        const fields = line.split(",");
        const domains = (fields[12] ?? "").split(";").filter((d) => d !== "");
        const categories = (fields[14] ?? "").split(";").filter((c) => c !== "");
        expect(categories).toHaveLength(domains.length);
        for (const category of categories) {
          expect(["owned", "competitor", "social", "reference", "news", "review", "other"]).toContain(category);
          tally[category] = (tally[category] ?? 0) + 1;
        }
      }
      expect(full.data.cited_kinds).toEqual(tally);
      const html = await h.call("getReport", {
        key: t.key,
        params: { id: analysisReport.id },
        query: { format: "html" },
      });
      expect(html.headers["content-type"]).toContain("text/html");
      expect(html.body).toContain("<svg");
      expect(html.body).not.toContain("<script");

      h.clock.advance(8 * DAY);
      await schedulerTick(h.deps);
      await settle(h, t.workspace.id);
      const digests = (
        await h.call("listReports", { key: t.key, query: { project_id: project.id, type: "weekly_digest" } })
      ).json().data;
      expect(digests).toHaveLength(1);
      await schedulerTick(h.deps);
      expect(
        (await h.call("listReports", { key: t.key, query: { project_id: project.id, type: "weekly_digest" } })).json()
          .data,
      ).toHaveLength(1);
    });

    it("sums a weekly digest from the answers' counts, never by averaging the runs' percentages", async () => {
      const { t, project } = await setup("agency", ["scripted"]);
      const schedule = (
        await h.call("createMonitoring", {
          key: t.key,
          body: { project_id: project.id, samples: 1, schedule: { every: "week" }, active: false },
        })
      ).json();
      engine.mentionBrand = true; // 2 prompts × 1 sample, both name the brand
      await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } });
      await settle(h, t.workspace.id);
      await h.call("updateMonitoring", { key: t.key, params: { id: schedule.id }, body: { samples: 3 } });
      engine.mentionBrand = false; // 2 prompts × 3 samples, none names it
      await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } });
      await settle(h, t.workspace.id);

      h.clock.set(weekStart(h.clock.now()).getTime() + 7 * DAY + 3_600_000);
      await schedulerTick(h.deps);
      const [digest] = (
        await h.call("listReports", { key: t.key, query: { project_id: project.id, type: "weekly_digest" } })
      ).json().data;
      const full = (await h.call("getReport", { key: t.key, params: { id: digest.id } })).json();
      // 2 of 8 answers (0.25), where the mean of the two runs' visibility would say 0.5.
      expect(full.data.summary.overall.visibility.value).toBe(0.25);
      expect(full.data.result_count).toBe(8);
      expect(full.data.analysis_ids).toHaveLength(2);
      const csv = await h.call("getReport", { key: t.key, params: { id: digest.id }, query: { format: "csv" } });
      expect(csv.body.trim().split("\r\n")).toHaveLength(9);
      expect(full.data.history).toHaveLength(2);
    });

    it("stores a report of bounded size whatever its answers, and still reads reports that embedded them", async () => {
      const { t, project } = await setup();
      const sizeOf = async (analysisId: string) => {
        const row = await h.deps.db
          .selectFrom("reports")
          .select(["id", "data"])
          .where("analysis_id", "=", analysisId)
          .executeTakeFirstOrThrow();
        return { id: row.id, bytes: row.data.length };
      };
      const small = (await h.call("analyze", { key: t.key, body: { project_id: project.id, samples: 1 } })).json();
      await settle(h, t.workspace.id);
      h.clock.advance(60_000);
      const large = (await h.call("analyze", { key: t.key, body: { project_id: project.id, samples: 10 } })).json();
      await settle(h, t.workspace.id);
      const a = await sizeOf(small.id);
      const b = await sizeOf(large.id);
      const csv = await h.call("getReport", { key: t.key, params: { id: b.id }, query: { format: "csv" } });
      const lines = csv.body.trim().split("\r\n");
      expect(lines).toHaveLength(21);
      // 2 answers against 20: the larger report holds no answer (no result id), only figures that
      // differ (a history point, counts), less than the 18 more answers' own table.
      for (const id of [a.id, b.id]) {
        const data = (
          await h.deps.db.selectFrom("reports").select("data").where("id", "=", id).executeTakeFirstOrThrow()
        ).data;
        expect(data).not.toMatch(/"res_/);
      }
      expect(b.bytes - a.bytes).toBeLessThan((csv.body.length * 18) / 20);
      const listed = await h.call("listResults", { key: t.key, query: { analysis_id: large.id, limit: "100" } });
      expect(new Set(lines.slice(1).map((line) => line.split(",")[0]))).toEqual(
        new Set((listed.json().data as { id: string }[]).map((r) => r.id)),
      );

      // A report stored before 2026-11-24, with its answers embedded and none of the newer fields.
      const stored = JSON.parse(
        (await h.deps.db.selectFrom("reports").select("data").where("id", "=", a.id).executeTakeFirstOrThrow()).data,
      );
      const { result_count: _count, analysis_ids: _ids, cited_kinds: _kinds, ...older } = stored;
      const embedded = [
        {
          id: "res_embedded1",
          created_at: "2026-11-20T10:00:00.000Z",
          engine: "sandbox",
          model: "sandbox-1",
          prompt: "best CRM?",
          sample: 1,
          status: "succeeded",
          mentioned: true,
          position: 1,
          sentiment: 0.5,
          brand_cited: true,
          score: 80,
          cited_domains: ["acmecrm.com", "g2.com"],
          competitors_mentioned: ["HubSpot"],
          cited_domain_categories: ["owned", "review"],
        },
      ];
      await h.deps.db
        .updateTable("reports")
        .set({ data: JSON.stringify({ ...older, results: embedded }) })
        .where("id", "=", a.id)
        .execute();
      const old = (await h.call("getReport", { key: t.key, params: { id: a.id } })).json();
      expect(old.data).toMatchObject({
        result_count: 1,
        analysis_ids: [small.id],
        cited_kinds: { owned: 1, review: 1 },
        results: embedded,
      });
      const oldCsv = await h.call("getReport", { key: t.key, params: { id: a.id }, query: { format: "csv" } });
      expect(oldCsv.body.trim().split("\r\n")).toHaveLength(2);
      expect(oldCsv.body).toContain("res_embedded1,");
    });

    it("keeps what answers and brands hold inert in CSV and HTML", async () => {
      const t = await h.tenant("agency");
      const project = (
        await h.call("createProject", {
          key: t.key,
          body: {
            name: "Acme CRM",
            primary_domain: "acmecrm.com",
            competitors: [{ name: "HubSpot <script>alert(1)</script>" }],
            prompts: ['=HYPERLINK("https://evil.example","click")', "-2+3"],
            engines: ["sandbox"],
          },
        })
      ).json();
      const analysis = (await h.call("analyze", { key: t.key, body: { project_id: project.id } })).json();
      await settle(h, t.workspace.id);
      const [report] = (await h.call("listReports", { key: t.key, query: { project_id: project.id } })).json().data;
      expect(report.analysis_id).toBe(analysis.id);

      const csv = await h.call("getReport", { key: t.key, params: { id: report.id }, query: { format: "csv" } });
      // The formula is quoted (RFC 4180) and prefixed with ', so a spreadsheet shows it as text.
      expect(csv.body).toContain(`,"'=HYPERLINK(""https://evil.example"",""click"")",`);
      expect(csv.body).toContain(",'-2+3,");
      expect(csv.body).not.toMatch(/,"?(=|-2)/);

      const html = await h.call("getReport", { key: t.key, params: { id: report.id }, query: { format: "html" } });
      expect(html.body).not.toContain("<script>alert(1)</script>");
      expect(html.body).toContain("&lt;script&gt;");
      expect(html.headers["content-security-policy"]).toContain("default-src 'none'");
      expect(html.headers["x-content-type-options"]).toBe("nosniff");
    });

    it("deletes a schedule with its runs; its analyses and reports stay", async () => {
      const { t, project } = await setup();
      const schedule = (
        await h.call("createMonitoring", { key: t.key, body: { project_id: project.id, schedule: { every: "day" } } })
      ).json();
      await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } });
      await settle(h, t.workspace.id);
      const [run] = await runsOf(h, schedule.id);
      const other = await h.tenant("agency");
      expect((await h.call("deleteMonitoring", { key: other.key, params: { id: schedule.id } })).statusCode).toBe(404);

      const deleted = await h.call("deleteMonitoring", { key: t.key, params: { id: schedule.id } });
      expect(deleted.json()).toEqual({ id: schedule.id, object: "monitoring_schedule", deleted: true });
      expect((await h.call("getMonitoring", { key: t.key, params: { id: schedule.id } })).statusCode).toBe(404);
      expect(await runsOf(h, schedule.id)).toHaveLength(0);
      const analysis = await h.call("getAnalysis", { key: t.key, params: { id: String(run?.analysis_id) } });
      expect(analysis.json()).toMatchObject({ status: "completed", schedule_id: schedule.id });
      const reports = (await h.call("listReports", { key: t.key, query: { project_id: project.id } })).json().data;
      expect(reports.map((r: { type: string }) => r.type)).toEqual(["monitoring_run"]);
    });

    it("refuses bad schedules, time zones, rules and engines outside the plan", async () => {
      const { t, project } = await setup("growth");
      const cases: [Record<string, unknown>, number, string][] = [
        [{ schedule: {} }, 400, "schedule"],
        [{ schedule: { every: "day", cron: "0 * * * *" } }, 400, "schedule"],
        [{ schedule: { cron: "*/5 * * * *" } }, 400, "schedule.cron"],
        [{ schedule: { cron: "61 * * * *" } }, 400, "schedule.cron"],
        [{ schedule: { every: "day", at: "25:00" } }, 400, "schedule.at"],
        [{ schedule: { every: "day" }, timezone: "Mars/Olympus" }, 400, "timezone"],
        [{ schedule: { every: "day" }, alert_rules: [{ type: "visibility_below" }] }, 400, "alert_rules[0].threshold"],
        [
          { schedule: { every: "day" }, alert_rules: [{ type: "competitor_overtakes", competitor: "Globex" }] },
          400,
          "alert_rules[0].competitor",
        ],
        [{ schedule: { every: "day" }, engines: ["claude"] }, 403, "engines"],
      ];
      for (const [body, status, field] of cases) {
        const res = await h.call("createMonitoring", { key: t.key, body: { project_id: project.id, ...body } });
        expect(res.statusCode, JSON.stringify(body)).toBe(status);
        expect(res.json().error.details[0].field).toBe(field);
      }
    });
  },
  {
    config: {
      webhookAllowPrivate: true,
      plans: { ...DEFAULT_PLANS, growth: { ...DEFAULT_PLANS.growth, creditsPerMonth: 5 } },
      engines: {
        ...defaultEngineConfig(),
        custom: [{ name: "scripted", baseUrl: "http://127.0.0.1:9", model: "scripted-1", apiKey: null }],
      },
    },
  },
);
