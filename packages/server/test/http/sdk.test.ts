import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { type Project, Sightline, SightlineConnectionError, SightlineError } from "@sightline/sdk";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sdkSources } from "../../scripts/sdk-sources.ts";
import { webSources } from "../../scripts/web-sources.ts";
import type { RunningWorker } from "../../src/app/worker.ts";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { PUBLIC_URL } from "../helpers/fixtures.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";
import { REPO_ROOT } from "../helpers/processes.ts";

it("the SDK's and the web app's generated clients are current (run `npm run codegen` after changing a route)", () => {
  for (const [dir, sources] of [
    ["packages/sdk/src/generated", sdkSources()],
    ["packages/web/src/generated", webSources()],
  ] as const) {
    for (const [file, text] of Object.entries(sources)) {
      const committed = readFileSync(resolve(REPO_ROOT, dir, file), "utf8");
      expect(committed, `${dir}/${file}`).toBe(text);
    }
  }
});

describeEachDialect("SDK against a real server", (h) => {
  let baseUrl: string;
  let tenant: Tenant;
  let sdk: Sightline;
  let worker: RunningWorker;
  beforeAll(async () => {
    const address = await h.app.listen({ host: "127.0.0.1", port: 0 });
    baseUrl = `${address}/v1`;
    tenant = await h.tenant();
    sdk = new Sightline({ apiKey: tenant.key, baseUrl });
    worker = await h.startWorker();
  });
  afterAll(async () => {
    await worker.stop(1_000);
  });

  /** An analysis of the project, finished by the worker. */
  async function finishedAnalysis(s: Sightline, project: Project) {
    const { id } = await s.analyses.create({ project_id: project.id, engines: ["sandbox"], prompts: ["which CRM?"] });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const analysis = await s.analyses.retrieve(id);
      if (analysis.status === "completed") return analysis;
      if (Date.now() > deadline) expect.fail(`analysis ${id} is still ${analysis.status}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /**
   * The id of an alert fired by a run of a schedule of `project`: visibility below 100%, or else
   * (the brand named in every answer) a sentiment score below 100, holds.
   */
  async function firedAlert(s: Sightline, project: Project): Promise<string> {
    const schedule = await s.monitoring.create({
      project_id: project.id,
      engines: ["sandbox"],
      prompts: ["which CRM?"],
      schedule: { every: "day" },
      alert_rules: [
        { type: "visibility_below", threshold: 1 },
        { type: "sentiment_below", threshold: 100 },
      ],
    });
    await s.monitoring.run(schedule.id);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [run] = (await s.monitoring.runs(schedule.id)).data;
      if (run?.status === "completed") break;
      if (Date.now() > deadline) expect.fail(`the run of schedule ${schedule.id} is still ${run?.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [alert] = (await s.monitoring.alerts({ schedule_id: schedule.id })).data;
    return alert?.id ?? expect.fail(`no alert fired for schedule ${schedule.id}`);
  }

  /** The id of the report of a finished analysis of `project`. */
  async function someReport(s: Sightline, project: Project): Promise<string> {
    const analysis = await finishedAnalysis(s, project);
    const reports = (await s.reports.list({ project_id: project.id, type: "analysis", limit: 100 })).data;
    const item = reports.find((r) => r.analysis_id === analysis.id);
    if (item === undefined) return expect.fail("no report for a completed analysis");
    return item.id;
  }

  /** One SDK call per operation: a route without an SDK method fails here. */
  const calls: Record<string, (sdk: Sightline, project: Project) => Promise<unknown>> = {
    listProjects: (s) => s.projects.list({ limit: 2 }),
    createProject: (s) => s.projects.create({ name: "Via SDK", primary_domain: "sdk.example.com" }),
    getProject: (s, p) => s.projects.retrieve(p.id),
    updateProject: (s, p) => s.projects.update(p.id, { aliases: ["SDK"] }),
    remeasureProject: async (s, p) => {
      const queued = await s.projects.remeasure(p.id);
      expect(queued.object).toBe("remeasure");
      const done = await s.projects.waitRemeasure(p.id, queued.id, { intervalMs: 25, timeoutMs: 15_000 });
      expect(done.status).toBe("completed");
      return done;
    },
    listRemeasures: (s, p) => s.projects.listRemeasures(p.id, { limit: 5 }),
    getRemeasure: async (s, p) => {
      const { data } = await s.projects.listRemeasures(p.id);
      const first = data[0] ?? (await s.projects.remeasure(p.id));
      return s.projects.retrieveRemeasure(p.id, first.id);
    },
    suggestPrompts: async (s, p) => {
      await s.projects.update(p.id, { category: "CRM for small agencies" });
      const list = await s.projects.suggestPrompts(p.id, { count: 2 });
      expect(list.data).toHaveLength(2);
      return list;
    },
    suggestBrand: async (s) => {
      // No website is reachable here (private addresses are refused): the reason comes back as a field issue.
      const refused = await s.projects.suggestFromWebsite({ website: "http://127.0.0.1:9/" }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "website" }] });
      return refused;
    },
    getUsage: (s) => s.usage.retrieve(),
    getProjectMetrics: async (s, p) => {
      const metrics = await s.projects.metrics(p.id, { interval: "week" });
      expect(metrics.object).toBe("project_metrics");
      return metrics;
    },
    getPromptMetrics: async (s, p) => {
      const metrics = await s.projects.promptMetrics(p.id);
      expect(metrics.object).toBe("prompt_metrics");
      return metrics;
    },
    getProjectSources: async (s, p) => {
      const sources = await s.projects.sources(p.id, { limit: 5 });
      expect(sources.object).toBe("project_sources");
      return sources;
    },
    getProjectSearches: async (s, p) => {
      const searches = await s.projects.searches(p.id, { limit: 5 });
      expect(searches.object).toBe("project_searches");
      return searches;
    },
    listOpportunities: async (s, p) => {
      const opportunities = await s.projects.opportunities(p.id, { limit: 5 });
      expect(opportunities.object).toBe("opportunities");
      return opportunities;
    },
    createChange: async (s) => {
      const brand = await s.projects.create({
        name: "Changes",
        primary_domain: "changes.example.com",
        prompts: ["acme pricing?", "best crm?", "acme prices?", "top crm?"],
      });
      const change = await s.changes.create(brand.id, {
        title: "New pricing page",
        pages: ["https://changes.example.com/pricing"],
        effect: 0.5,
      });
      // Proposed from the title and the page's words: the two questions about price.
      expect(change).toMatchObject({
        object: "change",
        prompts_proposed: true,
        prompts: ["acme pricing?", "acme prices?"],
        control_prompts: ["best crm?", "top crm?"],
        status: "collecting",
      });
      return change;
    },
    listChanges: async (s, p) => {
      const list = await s.changes.list(p.id, { limit: 5 });
      expect(list).toMatchObject({ data: [], has_more: false });
      return list;
    },
    getChange: async (s) => {
      const brand = await s.projects.create({
        name: "Change read",
        primary_domain: "read.example.com",
        prompts: ["a?", "b?", "c?", "d?"],
      });
      const change = await s.changes.create(brand.id, { title: "Listicle", prompts: ["a?", "b?"], effect: 0.5 });
      const read = await s.changes.retrieve(brand.id, change.id);
      expect(read).toMatchObject({
        id: change.id,
        control_prompts: ["c?", "d?"],
        visibility: { overall: { status: "not_enough_data" } },
      });
      await expect(
        s.changes.scheduleSamples(brand.id, change.id, { at: "25:00", timezone: "Mars/Olympus" }),
      ).rejects.toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "at" }, { field: "timezone" }] });
      const scheduled = await s.changes.scheduleSamples(brand.id, change.id, { at: "07:30" });
      expect(scheduled.plan.schedule_id).toMatch(/^mon_/);
      await expect(s.changes.scheduleSamples(brand.id, change.id)).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
      expect(await s.changes.delete(brand.id, change.id)).toEqual({ id: change.id, object: "change", deleted: true });
      await expect(s.monitoring.retrieve(scheduled.plan.schedule_id ?? "")).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      return read;
    },
    deleteChange: async (s, p) => {
      await expect(s.changes.delete(p.id, "chg_missing")).rejects.toMatchObject({ code: "NOT_FOUND" });
      return null;
    },
    scheduleChangeSamples: async (s, p) => {
      await expect(s.changes.scheduleSamples(p.id, "chg_missing")).rejects.toMatchObject({ code: "NOT_FOUND" });
      return null;
    },
    getProjectTraffic: async (s, p) => {
      const traffic = await s.projects.traffic(p.id, { engine: "chatgpt", verified: true });
      expect(traffic).toMatchObject({ object: "traffic", project_id: p.id, totals: { bot_hits: 0, referrals: 0 } });
      return traffic;
    },
    getProjectTrafficPages: async (s, p) => {
      const pages = await s.projects.trafficPages(p.id, { limit: 5 });
      expect(pages).toMatchObject({ object: "traffic_pages", project_id: p.id, total: 0, data: [] });
      return pages;
    },
    importProjectTrafficLogs: async (s, p) => {
      const line = '192.0.2.1 - - [20/Nov/2026:08:00:00 +0000] "GET /sdk HTTP/1.1" 200 1 "-" "GPTBot/1.2"\n';
      const counted = await s.projects.importTrafficLogs(p.id, gzipSync(line));
      expect(counted).toMatchObject({ object: "traffic_import", project_id: p.id, lines: 1, bot_hits: 1 });
      expect(await s.projects.importTrafficLogs(p.id, line, { format: "combined" })).toMatchObject({
        id: counted.id,
        duplicate: true,
      });
      return counted;
    },
    getProjectAccess: async (s) => {
      // Of a brand already checked: reading a never-checked one would fetch its site.
      await expect(s.projects.access("prj_missing")).rejects.toMatchObject({ code: "NOT_FOUND" });
      return null;
    },
    connectProjectTrafficGa4: async (s, p) => {
      // Connecting contacts nobody: the first sync checks the key.
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const connection = await s.projects.connectGa4(p.id, {
        property_id: "123456789",
        service_account_key: {
          type: "service_account",
          client_email: "reader@project.iam.gserviceaccount.com",
          private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
          // A public address written out: checked against the outbound rules without a DNS lookup.
          token_uri: `${new URL(PUBLIC_URL).origin}/token`,
        },
      });
      expect(connection).toMatchObject({ object: "traffic_ga4_connection", property_id: "123456789" });
      expect(JSON.stringify(connection)).not.toContain("PRIVATE KEY");
      return connection;
    },
    getProjectTrafficGa4: async (s, p) => {
      const connection = await s.projects.ga4(p.id);
      expect(connection).toMatchObject({
        client_email: "reader@project.iam.gserviceaccount.com",
        last_synced_at: null,
      });
      return connection;
    },
    disconnectProjectTrafficGa4: async (s, p) => {
      const gone = await s.projects.disconnectGa4(p.id);
      expect(gone).toEqual({ object: "traffic_ga4_connection", project_id: p.id, deleted: true });
      return gone;
    },
    syncProjectTrafficGa4: async (s, p) => {
      // Without a connection: refused before Google would be asked.
      await expect(s.projects.syncGa4(p.id, { days: 7 })).rejects.toMatchObject({ code: "NOT_FOUND" });
      return null;
    },
    getCompetitorSuggestions: async (s, p) => {
      const suggestions = await s.projects.competitorSuggestions(p.id, { limit: 5 });
      expect(suggestions.object).toBe("competitor_suggestions");
      return suggestions;
    },
    trackCompetitor: async (s, p) => {
      const project = await s.projects.trackCompetitor(p.id, { name: "SDK Rival", domains: ["sdkrival.example"] });
      expect(project.competitors.map((c) => c.name)).toContain("SDK Rival");
      return project;
    },
    getCompetitorLeaderboard: async (s, p) => {
      const leaderboard = await s.projects.competitors(p.id);
      expect(leaderboard.object).toBe("competitor_leaderboard");
      expect(leaderboard.data.some((row) => row.is_brand)).toBe(true);
      return leaderboard;
    },
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
    deleteProject: async (s) => {
      const doomed = await s.projects.create({ name: "Doomed", primary_domain: "doomed.example.com" });
      const deleted = await s.projects.delete(doomed.id);
      expect(deleted).toMatchObject({ id: doomed.id, object: "project", deleted: true });
      return deleted;
    },
    restoreProject: async (s) => {
      const doomed = await s.projects.create({ name: "Restored", primary_domain: "restored.example.com" });
      await s.projects.delete(doomed.id);
      expect((await s.projects.list({ deleted: true })).data.map((p) => p.id)).toContain(doomed.id);
      return s.projects.restore(doomed.id);
    },
    addPrompt: (s, p) => s.projects.addPrompt(p.id, { prompt: `added ${Math.random()}?` }),
    changePrompt: async (s, p) => {
      const prompt = `changed ${Math.random()}?`;
      await s.projects.addPrompt(p.id, { prompt });
      return s.projects.changePrompt(p.id, { prompt, paused: true });
    },
    removePrompt: async (s, p) => {
      const prompt = `removed ${Math.random()}?`;
      await s.projects.addPrompt(p.id, { prompt });
      return s.projects.removePrompt(p.id, prompt);
    },
    listAlerts: (s) => s.monitoring.alerts(),
    acknowledgeAlert: async (s, p) => {
      const acknowledged = await s.monitoring.acknowledgeAlert(await firedAlert(s, p));
      expect(acknowledged.status).toBe("acknowledged");
      return acknowledged;
    },
    reopenAlert: async (s, p) => {
      const id = await firedAlert(s, p);
      await s.monitoring.acknowledgeAlert(id);
      const reopened = await s.monitoring.reopenAlert(id);
      expect(reopened.status).toBe("open");
      return reopened;
    },
    listReports: (s) => s.reports.list(),
    getReport: async (s, p) => {
      const analysis = await finishedAnalysis(s, p);
      const reports = (await s.reports.list({ project_id: p.id, type: "analysis", limit: 100 })).data;
      const item = reports.find((r) => r.analysis_id === analysis.id);
      if (item === undefined) return expect.fail("no report for a completed analysis");
      const report = await s.reports.retrieve(item.id);
      expect(report).toMatchObject({ object: "report", analysis_id: analysis.id });
      expect(await s.reports.download(item.id, "csv")).toMatch(/^result_id,created_at,engine,/);
      expect(await s.reports.download(item.id, "html")).toMatch(/^<!doctype html>/);
      const pdf = await s.reports.pdf(item.id);
      expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
      return report;
    },
    createReportShare: async (s, p) => {
      const report = await someReport(s, p);
      const share = await s.reports.share(report, { expires_in_days: 3 });
      expect(share).toMatchObject({ object: "report_share", report_id: report, active: true });
      return share;
    },
    listReportShares: async (s, p) => {
      const report = await someReport(s, p);
      await s.reports.share(report);
      const list = await s.reports.shares(report);
      expect(list.data).toHaveLength(1);
      return list;
    },
    revokeReportShare: async (s, p) => {
      const report = await someReport(s, p);
      const share = await s.reports.share(report);
      const revoked = await s.reports.revokeShare(report, share.id);
      expect(revoked).toMatchObject({ id: share.id, active: false });
      return revoked;
    },
    getResult: async (s, p) => {
      const analysis = await finishedAnalysis(s, p);
      const [first] = (await s.results.list({ analysis_id: analysis.id, limit: 1 })).data;
      if (first === undefined) return expect.fail("no result for a completed analysis");
      const result = await s.results.retrieve(first.id);
      expect(result).toMatchObject({ id: first.id, analysis_id: analysis.id });
      return result;
    },
    listPersonas: (s, p) => s.personas.list(p.id),
    createPersona: (s, p) => s.personas.create(p.id, { name: `Buyer ${Math.random()}`, role: "CFO", active: false }),
    getPersona: async (s, p) =>
      s.personas.retrieve(p.id, (await s.personas.create(p.id, { name: `Buyer ${Math.random()}`, active: false })).id),
    updatePersona: async (s, p) => {
      const persona = await s.personas.create(p.id, { name: `Buyer ${Math.random()}`, active: false });
      const updated = await s.personas.update(p.id, persona.id, { constraints: "We can't use Salesforce" });
      expect(updated.version).toBe(2);
      return updated;
    },
    deletePersona: async (s, p) =>
      s.personas.delete(p.id, (await s.personas.create(p.id, { name: `Buyer ${Math.random()}`, active: false })).id),
    getProjectBreakdown: async (s, p) => {
      const breakdown = await s.personas.breakdown(p.id, { by: "country" });
      expect(breakdown.by).toBe("country");
      return breakdown;
    },
    listConversationScripts: (s, p) => s.conversations.scripts(p.id),
    createConversationScript: (s, p) =>
      s.conversations.createScript(p.id, { name: "Via SDK", turns: ["which CRM?", "and cheaper?"], active: false }),
    getConversationScript: async (s, p) =>
      s.conversations.script(
        p.id,
        (await s.conversations.createScript(p.id, { name: "Read", turns: ["which CRM?", "why?"], active: false })).id,
      ),
    updateConversationScript: async (s, p) =>
      s.conversations.updateScript(
        p.id,
        (await s.conversations.createScript(p.id, { name: "Change", turns: ["which CRM?", "why?"], active: false })).id,
        { name: "Changed" },
      ),
    deleteConversationScript: async (s, p) =>
      s.conversations.deleteScript(
        p.id,
        (await s.conversations.createScript(p.id, { name: "Gone", turns: ["which CRM?", "why?"], active: false })).id,
      ),
    getConversationScriptStats: async (s, p) =>
      s.conversations.stats(
        p.id,
        (await s.conversations.createScript(p.id, { name: "Stats", turns: ["which CRM?", "why?"], active: false })).id,
      ),
    listConversations: (s, p) => s.conversations.list(p.id, { limit: 5 }),
    getConversation: async (s, p) => {
      const script = await s.conversations.createScript(p.id, {
        name: "Run",
        turns: ["which CRM?", "and cheaper?"],
        active: false,
      });
      const { id } = await s.analyses.create({ project_id: p.id, engines: ["sandbox"], scripts: [script.id] });
      const deadline = Date.now() + 15_000;
      while ((await s.analyses.retrieve(id)).status !== "completed") {
        if (Date.now() > deadline) expect.fail(`analysis ${id} did not complete`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const [first] = (await s.conversations.list(p.id, { analysis_id: id })).data;
      if (first === undefined) return expect.fail("no conversation in the analysis");
      const conversation = await s.conversations.retrieve(p.id, first.id);
      expect(conversation.turns?.map((t) => t.turn)).toEqual([1, 2]);
      return conversation;
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

  it("names the code a status means when something other than the API answers (a proxy)", async () => {
    // A stand-in for a proxy in front of the API, which is not ours: plain-text errors.
    const proxy = (status: number) =>
      new Sightline({
        apiKey: tenant.key,
        baseUrl,
        maxRetries: 0,
        fetch: async () => new Response(`proxy says ${status}`, { status, headers: { "content-type": "text/plain" } }),
      });
    const cases: [number, string][] = [
      [401, "INVALID_API_KEY"],
      [404, "NOT_FOUND"],
      [413, "VALIDATION_ERROR"],
      [429, "RATE_LIMIT_EXCEEDED"],
      [403, "INTERNAL_ERROR"],
      [502, "INTERNAL_ERROR"],
    ];
    for (const [status, code] of cases) {
      await expect(proxy(status).projects.list()).rejects.toMatchObject({ status, code });
    }
  });

  it("raises SightlineConnectionError when the server cannot be reached", async () => {
    const offline = new Sightline({ apiKey: tenant.key, baseUrl: "http://127.0.0.1:9/v1", maxRetries: 0 });
    await expect(offline.projects.list()).rejects.toBeInstanceOf(SightlineConnectionError);
  });
});
