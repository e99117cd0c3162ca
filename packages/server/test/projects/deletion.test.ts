import { beforeAll, expect, it } from "vitest";
import { schedulerTick } from "../../src/app/scheduler.ts";
import { prune } from "../../src/services/retention/prune.ts";
import { dashboard, invite, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";

const DAY = 86_400_000;
const RETENTION = { jobsDays: 7, deliveriesDays: 30, answerTextDays: null };

/** Every table holding a project's rows, and how many of this project's it holds. */
async function rowsOf(h: Harness, projectId: string): Promise<Record<string, number>> {
  const db = h.deps.db;
  const counts: Record<string, number> = {};
  for (const table of [
    "projects",
    "analyses",
    "results",
    "result_rollups",
    "engine_rollups",
    "source_rollups",
    "source_totals",
    "monitoring_schedules",
    "monitoring_runs",
    "reports",
    "opportunity_sets",
  ] as const) {
    const column = table === "projects" ? "id" : "project_id";
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where(column, "=", projectId)
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  const reports = db.selectFrom("reports").select("id").where("project_id", "=", projectId);
  const shares = await db
    .selectFrom("report_shares")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("report_id", "in", reports)
    .executeTakeFirstOrThrow();
  counts.report_shares = Number(shares.n);
  return counts;
}

describeEachDialect("deleting a brand: gone at once, restorable for 30 days, then purged", (h) => {
  let t: Tenant;

  beforeAll(async () => {
    await h.startWorker(undefined, { pollIntervalMs: 20 });
    t = await h.tenant("agency");
  });

  /** A brand with answers, a schedule that has run, an opportunity set and a shared report. */
  async function measuredBrand(name = "Acme CRM") {
    const project = (
      await h.call("createProject", {
        key: t.key,
        body: {
          name,
          primary_domain: `${name.toLowerCase().replace(/\W+/g, "")}.com`,
          competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }],
          prompts: ["best CRM?", "CRM for agencies?"],
          engines: ["sandbox"],
        },
      })
    ).json();
    const analysis = await h.call("analyze", {
      key: t.key,
      body: { project_id: project.id, engines: ["sandbox"], samples: 2, wait: 30 },
    });
    expect(analysis.statusCode, analysis.body).toBe(200);
    const schedule = (
      await h.call("createMonitoring", { key: t.key, body: { project_id: project.id, schedule: { every: "day" } } })
    ).json();
    const result = (await h.call("listResults", { key: t.key, query: { project_id: project.id, limit: 1 } })).json()
      .data[0];
    const report = (await h.call("listReports", { key: t.key, query: { project_id: project.id } })).json().data[0];
    expect(report, "a report of the analysis").toBeDefined();
    await h.call("createReportShare", { key: t.key, params: { id: report.id }, body: { expires_in_days: 7 } });
    await h.call("listOpportunities", { key: t.key, params: { id: project.id } });
    return { project, analysisId: analysis.json().id as string, schedule, resultId: result.id as string, report };
  }

  /** What the brand's pages show: its figures, prompts, sources, competitors, answers and reports. */
  async function figures(projectId: string) {
    // A fixed period: the default one moves with the clock.
    const period = { from: "2026-11-01T00:00:00.000Z", to: "2026-12-01T00:00:00.000Z" };
    const read = async (operationId: string, query: Record<string, string | number> = {}) => {
      const res = await h.call(operationId, { key: t.key, params: { id: projectId }, query: { ...period, ...query } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    return {
      metrics: await read("getProjectMetrics", { interval: "week" }),
      prompts: await read("getPromptMetrics"),
      sources: await read("getProjectSources", { limit: 50 }),
      competitors: await read("getCompetitorLeaderboard"),
      searches: await read("getProjectSearches", { limit: 50 }),
      results: (await h.call("listResults", { key: t.key, query: { project_id: projectId, limit: 100 } })).json(),
      reports: (await h.call("listReports", { key: t.key, query: { project_id: projectId } })).json(),
      schedules: (await h.call("listMonitoring", { key: t.key, query: { project_id: projectId } })).json(),
    };
  }

  it("disappears from every list, read and analytics at once, refuses analyses, and emits no event", async () => {
    const { project, analysisId, schedule, resultId, report } = await measuredBrand();
    const other = (
      await h.call("createProject", { key: t.key, body: { name: "Other", primary_domain: "other.com" } })
    ).json();
    const events = await h.count("events", t.workspace.id);

    const deleted = await h.call("deleteProject", { key: t.key, params: { id: project.id } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({
      id: project.id,
      object: "project",
      deleted: true,
      deleted_at: h.clock.now().toISOString(),
      purge_at: new Date(h.clock.now().getTime() + 30 * DAY).toISOString(),
    });
    expect(await h.count("events", t.workspace.id)).toBe(events);

    const byId = { key: t.key, params: { id: project.id } };
    for (const operationId of [
      "getProject",
      "getProjectMetrics",
      "getPromptMetrics",
      "getProjectSources",
      "getCompetitorLeaderboard",
      "getProjectSearches",
      "listOpportunities",
      "getCompetitorSuggestions",
      "listRemeasures",
      "deleteProject",
    ]) {
      const res = await h.call(operationId, {
        ...byId,
        query: operationId === "getProjectMetrics" ? { interval: "week" } : {},
      });
      expect(res.statusCode, `${operationId}: ${res.body}`).toBe(404);
    }
    const patch = await h.call("updateProject", { ...byId, body: { name: "Renamed" } });
    expect(patch.statusCode).toBe(404);
    expect((await h.call("addPrompt", { ...byId, body: { prompt: "new?" } })).statusCode).toBe(404);
    expect((await h.call("getAnalysis", { key: t.key, params: { id: analysisId } })).statusCode).toBe(404);
    expect((await h.call("getResult", { key: t.key, params: { id: resultId } })).statusCode).toBe(404);
    expect((await h.call("getReport", { key: t.key, params: { id: report.id } })).statusCode).toBe(404);
    expect((await h.call("getMonitoring", { key: t.key, params: { id: schedule.id } })).statusCode).toBe(404);
    expect((await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } })).statusCode).toBe(404);
    const analyze = await h.call("analyze", {
      key: t.key,
      body: { project_id: project.id, engines: ["sandbox"], samples: 1 },
    });
    expect(analyze.statusCode).toBe(404);
    expect(analyze.json().error.code).toBe("NOT_FOUND");

    const ids = async (operationId: string, query: Record<string, string | number> = {}) =>
      (await h.call(operationId, { key: t.key, query: { limit: 100, ...query } }))
        .json()
        .data.map((row: { project_id?: string; id: string }) => row.project_id ?? row.id);
    expect(await ids("listProjects")).toEqual([other.id]);
    for (const list of ["listAnalyses", "listResults", "listMonitoring", "listReports", "listAlerts"]) {
      expect(await ids(list), list).not.toContain(project.id);
      expect(await ids(list, { project_id: project.id }), list).toEqual([]);
    }
    const bin = (await h.call("listProjects", { key: t.key, query: { deleted: "true" } })).json().data;
    expect(bin).toMatchObject([{ id: project.id, name: "Acme CRM", deleted_at: h.clock.now().toISOString() }]);
    // Restored for the next tests' tenant to stay tidy.
    expect((await h.call("restoreProject", byId)).statusCode).toBe(200);
  });

  it("comes back on restore with every figure unchanged, its schedules resuming without catching up", async () => {
    const { project, schedule } = await measuredBrand("Restored Co");
    const before = await figures(project.id);
    expect(before.results.data.length).toBeGreaterThan(0);

    expect((await h.call("deleteProject", { key: t.key, params: { id: project.id } })).statusCode).toBe(200);
    const runsOf = async () =>
      (await h.deps.db.selectFrom("monitoring_runs").select("id").where("schedule_id", "=", schedule.id).execute())
        .length;
    const runs = await runsOf();
    // Its slot passes while it is deleted: the scheduler does not run it.
    h.clock.set(Date.parse(schedule.next_run_at) + 3_600_000);
    await schedulerTick(h.deps);
    expect(await runsOf()).toBe(runs);

    const restored = await h.call("restoreProject", { key: t.key, params: { id: project.id } });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toEqual((await h.call("getProject", { key: t.key, params: { id: project.id } })).json());
    expect(restored.json().deleted_at).toBeUndefined();
    const after = await figures(project.id);
    expect(after.schedules.data[0].next_run_at > h.clock.now().toISOString()).toBe(true);
    const { schedules: s1, ...figuresBefore } = before;
    const { schedules: s2, ...figuresAfter } = after;
    expect(figuresAfter).toEqual(figuresBefore);
    expect(s2.data.map((s: { id: string }) => s.id)).toEqual(s1.data.map((s: { id: string }) => s.id));
    // No catch-up run on restoring; the next slot runs as usual.
    await schedulerTick(h.deps);
    expect(await runsOf()).toBe(runs);
    h.clock.set(Date.parse(after.schedules.data[0].next_run_at) + 60_000);
    expect(await schedulerTick(h.deps)).toBeGreaterThanOrEqual(1);
    expect((await h.call("restoreProject", { key: t.key, params: { id: project.id } })).statusCode).toBe(404);
  });

  it("is purged with all its data by the retention worker after 30 days, not before", async () => {
    const { project } = await measuredBrand("Purged Inc");
    const kept = await measuredBrand("Kept Ltd");
    const keptRows = await rowsOf(h, kept.project.id);
    const rows = await rowsOf(h, project.id);
    for (const table of ["analyses", "results", "result_rollups", "monitoring_schedules", "reports", "report_shares"]) {
      expect(rows[table], table).toBeGreaterThan(0);
    }
    expect((await h.call("deleteProject", { key: t.key, params: { id: project.id } })).statusCode).toBe(200);
    const deletedAt = h.clock.now().getTime();

    h.clock.set(deletedAt + 29 * DAY);
    expect((await prune(h.deps, h.clock.now(), RETENTION)).projects).toBe(0);
    expect(await rowsOf(h, project.id)).toEqual(rows);

    h.clock.set(deletedAt + 30 * DAY + 60_000);
    expect((await prune(h.deps, h.clock.now(), RETENTION)).projects).toBe(1);
    expect(Object.values(await rowsOf(h, project.id)).every((n) => n === 0)).toBe(true);
    expect(await rowsOf(h, kept.project.id)).toEqual(keptRows);
    expect((await h.call("restoreProject", { key: t.key, params: { id: project.id } })).statusCode).toBe(404);
    expect((await prune(h.deps, h.clock.now(), RETENTION)).projects).toBe(0);
  });

  it("refuses a key with only `read` with the spec's scope error, changing nothing", async () => {
    const project = (
      await h.call("createProject", { key: t.key, body: { name: "Scoped", primary_domain: "scoped.com" } })
    ).json();
    const reader = await h.key(t.workspace.id, ["read"]);
    for (const operationId of ["deleteProject", "restoreProject"]) {
      const res = await h.call(operationId, { key: reader, params: { id: project.id } });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe("INSUFFICIENT_SCOPE");
    }
    expect((await h.call("getProject", { key: t.key, params: { id: project.id } })).statusCode).toBe(200);
  });
});

describeEachDialect("deleting a brand on the dashboard: owners and admins only", (h) => {
  it("refuses a member (whose role has the projects scope) and a viewer, and lets an admin delete and restore", async () => {
    const owner = await signUp(h, { email: uniqueEmail("owner"), workspace_name: "Roles" });
    const join = async (role: string) => {
      const email = uniqueEmail(role);
      return signUp(h, { email, invitation: await invite(h, owner, email, role) });
    };
    const member = await join("member");
    const viewer = await join("viewer");
    const admin = await join("admin");
    const v1 = (path: string) => `/app/api/workspaces/${owner.workspaceId}/v1${path}`;
    const created = await dashboard(h, "POST", v1("/projects"), {
      cookie: member.cookie,
      body: { name: "Acme", primary_domain: "acme.com" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;

    for (const session of [member, viewer]) {
      const res = await dashboard(h, "DELETE", v1(`/projects/${id}`), { cookie: session.cookie });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe("FORBIDDEN");
    }
    expect((await dashboard(h, "GET", v1(`/projects/${id}`), { cookie: member.cookie })).statusCode).toBe(200);
    // A member still edits the brand: the scope is untouched, only deletion asks for more.
    const renamed = await dashboard(h, "PATCH", v1(`/projects/${id}`), {
      cookie: member.cookie,
      body: { name: "Acme Inc" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    expect((await dashboard(h, "DELETE", v1(`/projects/${id}`), { cookie: admin.cookie })).statusCode).toBe(200);
    const bin = await dashboard(h, "GET", v1("/projects?deleted=true"), { cookie: member.cookie });
    expect(bin.json().data.map((p: { id: string }) => p.id)).toEqual([id]);
    const refused = await dashboard(h, "POST", v1(`/projects/${id}/restore`), { cookie: member.cookie });
    expect(refused.statusCode).toBe(403);
    const restored = await dashboard(h, "POST", v1(`/projects/${id}/restore`), { cookie: owner.cookie });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().name).toBe("Acme Inc");
  });
});

describeEachDialect("deleting a brand while its work is under way", (h) => {
  it("finishes an analysis accepted before the deletion, its answers hidden with the brand and back with it", async () => {
    // No worker yet: the analysis is still queued when the brand is deleted.
    const t = await h.tenant("agency");
    const project = (
      await h.call("createProject", {
        key: t.key,
        body: { name: "Acme CRM", primary_domain: "acme.com", prompts: ["best CRM?", "CRM for agencies?"] },
      })
    ).json();
    const queued = await h.call("analyze", {
      key: t.key,
      body: { project_id: project.id, engines: ["sandbox"], samples: 2 },
    });
    expect(queued.statusCode, queued.body).toBe(202);
    const analysisId = queued.json().id as string;
    expect((await h.call("deleteProject", { key: t.key, params: { id: project.id } })).statusCode).toBe(200);

    await h.startWorker(undefined, { pollIntervalMs: 20 });
    const status = async () =>
      (await h.deps.db.selectFrom("analyses").select("status").where("id", "=", analysisId).executeTakeFirstOrThrow())
        .status;
    await expect.poll(status, { timeout: 15_000 }).toBe("completed");
    // Hidden while the brand is deleted…
    expect((await h.call("getAnalysis", { key: t.key, params: { id: analysisId } })).statusCode).toBe(404);
    // …and whole when it is restored: every answer asked, no credit left reserved.
    expect((await h.call("restoreProject", { key: t.key, params: { id: project.id } })).statusCode).toBe(200);
    const analysis = (await h.call("getAnalysis", { key: t.key, params: { id: analysisId } })).json();
    expect(analysis.status).toBe("completed");
    const results = (await h.call("listResults", { key: t.key, query: { analysis_id: analysisId, limit: 10 } })).json();
    expect(results.data).toHaveLength(4);
  });
});
