import { newId } from "../../src/lib/ids.ts";
import { createAnalysis } from "../../src/services/analyses/create.ts";
import { createPersona } from "../../src/services/conversations/personas.ts";
import { createScript } from "../../src/services/conversations/scripts.ts";
import { createChange } from "../../src/services/experiments/changes.ts";
import { createSchedule } from "../../src/services/monitoring/schedules.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { startRemeasure } from "../../src/services/remeasure/remeasures.ts";
import { reportForAnalysis } from "../../src/services/reports/generate.ts";
import { deleteProject } from "../../src/services/retention/brand-deletion.ts";
import { checkAccess } from "../../src/services/traffic/access.ts";
import { connectGa4 } from "../../src/services/traffic/ga4.ts";
import { createEndpoint } from "../../src/services/webhooks/endpoints.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { sharedFakeGoogle } from "./fake-google-analytics.ts";
import type { Harness, Tenant } from "./harness.ts";
import { Site } from "./website.ts";

export interface RouteInput {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
}

// Fixtures create through the services, not the API: they must work whatever state the
// tenant's key is in (revoked, expired, free plan) when the test asks for them.
async function project(h: Harness, tenant: Tenant, prompts: string[] = []): Promise<string> {
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  return (
    await createProject(ctx, { name: `Fixture ${Math.random()}`, primary_domain: "fixture.example.com", prompts })
  ).id;
}

/**
 * A deleted brand, still restorable. Its deletion is dated 360 days on, so that it still is when the
 * suite moves the clock to the last moment of a key's year (restoring is possible for 30 days).
 */
async function deletedProject(h: Harness, tenant: Tenant): Promise<string> {
  const id = await project(h, tenant);
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  const later = new Date(h.clock.now().getTime() + 360 * 86_400_000);
  await deleteProject({ ...ctx, clock: { now: () => later } }, id);
  return id;
}

const CHANGE_PROMPTS = ["price of acme?", "acme cost?", "best crm?", "top crm tools?"];

/**
 * A brand with a change recorded on its first two prompts, the other two its controls. The change
 * is dated 360 days on, so that it still collects when the suite moves the clock to the last
 * moment of a key's year (a change's window closes 28 days after it).
 */
async function changeFixture(h: Harness, tenant: Tenant): Promise<RouteInput> {
  const now = await workspaceContext(h.deps, tenant.workspace.id);
  const later = new Date(h.clock.now().getTime() + 360 * 86_400_000);
  const ctx = { ...now, clock: { now: () => later } };
  const id = await project(h, tenant, CHANGE_PROMPTS);
  const change = await createChange(ctx, id, {
    title: "New pricing page",
    prompts: CHANGE_PROMPTS.slice(0, 2),
    effect: 0.5,
  });
  return { params: { id, change_id: change.id } };
}

/** A public address (documentation would refuse it): subscriptions accept it without DNS. */
export const PUBLIC_URL = "https://93.184.216.34/sightline-hooks";

/**
 * A brand connected to GA4: to the fake Google where the suite allows private addresses (a sync
 * then succeeds), else to a public token address that is never called.
 */
async function ga4Project(h: Harness, tenant: Tenant): Promise<string> {
  const id = await project(h, tenant);
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  const google = await sharedFakeGoogle();
  const local = h.deps.webhookTargets.allowPrivate;
  const key = google.keyFile(local ? {} : { token_uri: "https://93.184.216.34/token" });
  await connectGa4(
    ctx,
    id,
    { property_id: [...google.properties][0] ?? "1", service_account_key: key },
    local ? { dataApiUrl: google.url } : {},
  );
  return id;
}

async function analysis(h: Harness, tenant: Tenant): Promise<string> {
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  const id = await project(h, tenant);
  return (await createAnalysis(ctx, { project_id: id, engines: ["sandbox"], prompts: ["best tool?"] })).id;
}

async function persona(h: Harness, tenant: Tenant): Promise<RouteInput> {
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  const id = await project(h, tenant);
  return { params: { id, persona_id: (await createPersona(ctx, id, { name: "Fixture CFO", role: "CFO" })).id } };
}

async function script(h: Harness, tenant: Tenant): Promise<RouteInput> {
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  const id = await project(h, tenant);
  const created = await createScript(ctx, id, { name: "Fixture script", turns: ["best tool?", "and cheaper?"] });
  return { params: { id, script_id: created.id } };
}

/** A conversation as an analysis plans it (running: no worker runs in the security suite). */
async function conversation(h: Harness, tenant: Tenant): Promise<RouteInput> {
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  const id = await project(h, tenant, ["best tool?"]);
  await createScript(ctx, id, { name: "Fixture script", turns: ["best tool?", "and cheaper?"] });
  const queued = await createAnalysis(ctx, { project_id: id, engines: ["sandbox"] });
  const row = await h.deps.db
    .selectFrom("conversations")
    .select("id")
    .where("analysis_id", "=", queued.id)
    .executeTakeFirstOrThrow();
  return { params: { id, conversation_id: row.id } };
}

async function result(h: Harness, tenant: Tenant): Promise<string> {
  const analysisId = await analysis(h, tenant);
  const now = h.clock.now().toISOString();
  const row = await h.deps.db.selectFrom("analyses").selectAll().where("id", "=", analysisId).executeTakeFirstOrThrow();
  const id = `res_${analysisId.slice(4)}`;
  // A stored answer, as the worker writes it (no worker runs in the security suite).
  await h.deps.db
    .insertInto("results")
    .values({
      id,
      workspace_id: row.workspace_id,
      project_id: row.project_id,
      analysis_id: analysisId,
      engine: "sandbox",
      model: "sandbox-1",
      prompt: "best tool?",
      prompt_index: 0,
      sample: 1,
      status: "succeeded",
      error: null,
      text: "Fixture answer.",
      measure: null,
      mentioned: false,
      position: null,
      sentiment: null,
      brand_cited: false,
      citation_count: 0,
      brand_citation_count: 0,
      score: 0,
      score_version: "1",
      attempts: 1,
      latency_ms: 1,
      created_at: now,
    })
    .execute();
  return id;
}

async function schedule(h: Harness, tenant: Tenant): Promise<string> {
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  const projectId = await project(h, tenant);
  return (await createSchedule(ctx, { project_id: projectId, prompts: ["best tool?"], schedule: { every: "day" } })).id;
}

/** An alert as a run fires it (its rule, message and run), written as the monitoring worker does. */
async function alert(h: Harness, tenant: Tenant): Promise<string> {
  const scheduleId = await schedule(h, tenant);
  const row = await h.deps.db
    .selectFrom("monitoring_schedules")
    .select("project_id")
    .where("id", "=", scheduleId)
    .executeTakeFirstOrThrow();
  const id = newId("alt");
  await h.deps.db
    .insertInto("alerts")
    .values({
      id,
      workspace_id: tenant.workspace.id,
      project_id: row.project_id,
      schedule_id: scheduleId,
      run_id: newId("run"),
      rule_id: "rule_1",
      rule: JSON.stringify({ id: "rule_1", type: "brand_disappeared" }),
      engine: null,
      observed: 0,
      previous: 0.5,
      message: "The brand disappears from the answers across engines: named in no answer (in 2 answers last run).",
      created_at: h.clock.now().toISOString(),
    })
    .execute();
  return id;
}

async function report(h: Harness, tenant: Tenant): Promise<string> {
  const analysisId = await analysis(h, tenant);
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  const now = h.clock.now().toISOString();
  await h.deps.db
    .updateTable("analyses")
    .set({ status: "completed", completed_at: now, summary: null })
    .where("id", "=", analysisId)
    .execute();
  const row = await h.deps.db.selectFrom("analyses").selectAll().where("id", "=", analysisId).executeTakeFirstOrThrow();
  await reportForAnalysis(ctx, row);
  const created = await h.deps.db
    .selectFrom("reports")
    .select("id")
    .where("analysis_id", "=", analysisId)
    .executeTakeFirstOrThrow();
  return created.id;
}

async function endpoint(h: Harness, tenant: Tenant): Promise<string> {
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  return (await createEndpoint(ctx, { url: PUBLIC_URL, events: ["project.created"] })).id;
}

/**
 * A valid request for every route, owned by `tenant`: the shared security suite sends it with
 * wrong credentials and expects refusals, then with right ones and expects success. A route
 * without an entry here fails the suite, so new routes cannot skip it.
 */
let site: Promise<Site> | null = null;

/** One small website for the whole file, started on first use. */
function fixtureSite(): Promise<Site> {
  site ??= new Site().start().then((started) => {
    started.pages.set("/", {
      body: '<html lang="en"><head><title>Fixture CRM | CRM for agencies</title></head><body><h1>Fixture CRM</h1><p>Unlike Contoso, we build for agencies.</p></body></html>',
    });
    return started.unref();
  });
  return site;
}

export const ROUTE_FIXTURES: Record<string, (h: Harness, tenant: Tenant) => Promise<RouteInput>> = {
  listProjects: async () => ({ query: { limit: 5 } }),
  createProject: async () => ({ body: { name: "Secure brand", primary_domain: "secure.example.com" } }),
  getProject: async (h, t) => ({ params: { id: await project(h, t) } }),
  deleteProject: async (h, t) => ({ params: { id: await project(h, t) } }),
  restoreProject: async (h, t) => ({ params: { id: await deletedProject(h, t) } }),
  addPrompt: async (h, t) => ({ params: { id: await project(h, t) }, body: { prompt: "best tool?" } }),
  changePrompt: async (h, t) => ({
    params: { id: await project(h, t, ["best tool?"]) },
    body: { prompt: "best tool?", paused: true },
  }),
  removePrompt: async (h, t) => ({
    params: { id: await project(h, t, ["best tool?"]) },
    query: { prompt: "best tool?" },
  }),
  updateProject: async (h, t) => ({ params: { id: await project(h, t) }, body: { name: "Renamed" } }),
  remeasureProject: async (h, t) => ({ params: { id: await project(h, t) }, body: {} }),
  listRemeasures: async (h, t) => ({ params: { id: await project(h, t) }, query: { limit: 5 } }),
  getRemeasure: async (h, t) => {
    const ctx = await workspaceContext(h.deps, t.workspace.id);
    const id = await project(h, t);
    return { params: { id, remeasure_id: (await startRemeasure(ctx, id, {})).id } };
  },
  getUsage: async () => ({}),
  getProjectMetrics: async (h, t) => ({ params: { id: await project(h, t) }, query: { interval: "week" } }),
  getPromptMetrics: async (h, t) => ({ params: { id: await project(h, t) } }),
  getProjectSources: async (h, t) => ({ params: { id: await project(h, t) }, query: { limit: 5 } }),
  getProjectSearches: async (h, t) => ({ params: { id: await project(h, t) }, query: { limit: 5 } }),
  listOpportunities: async (h, t) => ({ params: { id: await project(h, t) }, query: { limit: 5 } }),
  createChange: async (h, t) => ({
    params: { id: await project(h, t, CHANGE_PROMPTS) },
    body: { title: "New pricing page", prompts: CHANGE_PROMPTS.slice(0, 2) },
  }),
  listChanges: async (h, t) => ({ params: { id: await project(h, t) }, query: { limit: 5 } }),
  getChange: async (h, t) => changeFixture(h, t),
  deleteChange: async (h, t) => changeFixture(h, t),
  scheduleChangeSamples: async (h, t) => ({ ...(await changeFixture(h, t)), body: { at: "08:00" } }),
  listPersonas: async (h, t) => ({ params: { id: await project(h, t) } }),
  createPersona: async (h, t) => ({ params: { id: await project(h, t) }, body: { name: "Cautious CFO", role: "CFO" } }),
  getPersona: async (h, t) => persona(h, t),
  updatePersona: async (h, t) => ({ ...(await persona(h, t)), body: { constraints: "No Salesforce" } }),
  deletePersona: async (h, t) => persona(h, t),
  listConversationScripts: async (h, t) => ({ params: { id: await project(h, t) } }),
  createConversationScript: async (h, t) => ({
    params: { id: await project(h, t) },
    body: { name: "Shortlist", turns: ["best tool?", "We can't use {top_competitor_named}; what else?"] },
  }),
  getConversationScript: async (h, t) => script(h, t),
  updateConversationScript: async (h, t) => ({ ...(await script(h, t)), body: { name: "Renamed script" } }),
  deleteConversationScript: async (h, t) => script(h, t),
  getConversationScriptStats: async (h, t) => script(h, t),
  listConversations: async (h, t) => ({ params: { id: await project(h, t) }, query: { limit: 5 } }),
  getConversation: async (h, t) => conversation(h, t),
  getProjectBreakdown: async (h, t) => ({ params: { id: await project(h, t) }, query: { by: "persona" } }),
  getProjectTraffic: async (h, t) => ({ params: { id: await project(h, t) }, query: { engine: "chatgpt" } }),
  getProjectTrafficPages: async (h, t) => ({ params: { id: await project(h, t) }, query: { limit: 5 } }),
  importProjectTrafficLogs: async (h, t) => ({
    params: { id: await project(h, t) },
    // A line of its own per call: the same bytes again would be a duplicate, counted once.
    body: `192.0.2.1 - - [20/Nov/2026:08:00:00 +0000] "GET /p/${Math.random()} HTTP/1.1" 200 1 "-" "GPTBot/1.2"\n`,
  }),
  getProjectAccess: async (h, t) => {
    const id = await project(h, t);
    // Checked beforehand, against a web that answers 404 to everything: the route then reads the
    // stored audit, and the suite reads no site.
    await checkAccess(await workspaceContext(h.deps, t.workspace.id), id, {
      fetcher: {
        get: async (url) => ({ ok: true, url, status: 404, contentType: "text/html", body: "", truncated: false }),
      },
    });
    return { params: { id } };
  },
  connectProjectTrafficGa4: async (h, t) => ({
    params: { id: await project(h, t) },
    body: {
      property_id: "123456789",
      service_account_key: (await sharedFakeGoogle()).keyFile({ token_uri: "https://93.184.216.34/token" }),
    },
  }),
  getProjectTrafficGa4: async (h, t) => ({ params: { id: await ga4Project(h, t) } }),
  disconnectProjectTrafficGa4: async (h, t) => ({ params: { id: await ga4Project(h, t) } }),
  syncProjectTrafficGa4: async (h, t) => ({ params: { id: await ga4Project(h, t) }, body: { days: 7 } }),
  getCompetitorSuggestions: async (h, t) => ({ params: { id: await project(h, t) }, query: { limit: 5 } }),
  trackCompetitor: async (h, t) => ({ params: { id: await project(h, t) }, body: { name: "Fixture Rival" } }),
  suggestPrompts: async (h, t) => {
    const ctx = await workspaceContext(h.deps, t.workspace.id);
    const { id } = await createProject(ctx, {
      name: `Fixture ${Math.random()}`,
      primary_domain: "fixture.example.com",
      category: "project management software",
    });
    return { params: { id }, body: { count: 3 } };
  },
  // A brand's website on 127.0.0.1: the suites that use these fixtures allow private addresses.
  suggestBrand: async () => ({ body: { website: (await fixtureSite()).url } }),
  getCompetitorLeaderboard: async (h, t) => ({ params: { id: await project(h, t) } }),
  analyze: async (h, t) => ({
    body: { project_id: await project(h, t), engines: ["sandbox"], prompts: ["best tool?"] },
  }),
  listAnalyses: async () => ({ query: { limit: 5 } }),
  getAnalysis: async (h, t) => ({ params: { id: await analysis(h, t) } }),
  listResults: async () => ({ query: { limit: 5 } }),
  getResult: async (h, t) => ({ params: { id: await result(h, t) } }),
  listMonitoring: async () => ({ query: { limit: 5 } }),
  createMonitoring: async (h, t) => ({
    body: {
      project_id: await project(h, t),
      prompts: ["best tool?"],
      schedule: { every: "week", weekday: "monday", at: "08:00" },
    },
  }),
  getMonitoring: async (h, t) => ({ params: { id: await schedule(h, t) } }),
  updateMonitoring: async (h, t) => ({ params: { id: await schedule(h, t) }, body: { samples: 2 } }),
  deleteMonitoring: async (h, t) => ({ params: { id: await schedule(h, t) } }),
  runMonitoring: async (h, t) => ({ params: { id: await schedule(h, t) } }),
  listMonitoringRuns: async (h, t) => ({ params: { id: await schedule(h, t) } }),
  listAlerts: async () => ({ query: { limit: 5 } }),
  acknowledgeAlert: async (h, t) => ({ params: { id: await alert(h, t) } }),
  reopenAlert: async (h, t) => ({ params: { id: await alert(h, t) } }),
  listReports: async () => ({ query: { limit: 5 } }),
  getReport: async (h, t) => ({ params: { id: await report(h, t) } }),
  createReportShare: async (h, t) => ({ params: { id: await report(h, t) }, body: { expires_in_days: 7 } }),
  listReportShares: async (h, t) => ({ params: { id: await report(h, t) } }),
  revokeReportShare: async (h, t) => {
    const id = await report(h, t);
    const share = await h.call("createReportShare", { key: t.key, params: { id } });
    return { params: { id, share_id: share.json().id } };
  },
  listWebhooks: async () => ({ query: { limit: 5 } }),
  createWebhook: async () => ({ body: { url: PUBLIC_URL, events: ["project.created"] } }),
  getWebhook: async (h, t) => ({ params: { id: await endpoint(h, t) } }),
  updateWebhook: async (h, t) => ({ params: { id: await endpoint(h, t) }, body: { description: "changed" } }),
  deleteWebhook: async (h, t) => ({ params: { id: await endpoint(h, t) } }),
  listWebhookDeliveries: async (h, t) => ({ params: { id: await endpoint(h, t) } }),
  redeliverWebhook: async (h, t) => {
    const id = await endpoint(h, t);
    await project(h, t); // an event, hence a delivery to the endpoint
    const delivery = await h.deps.db
      .selectFrom("webhook_deliveries")
      .select("id")
      .where("endpoint_id", "=", id)
      .executeTakeFirstOrThrow();
    return { params: { id, delivery_id: delivery.id } };
  },
};
