import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningWorker } from "../../src/app/worker.ts";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { ScriptedVendor } from "../helpers/scripted-vendor.ts";

async function settle(h: Harness, workspaceId: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const busy = await h.deps.db
      .selectFrom("analyses")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("status", "in", ["queued", "running"])
      .execute();
    if (busy.length === 0) return;
    if (Date.now() > deadline) throw new Error("analyses still running");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeEachDialect(
  "alerts you can work through, and runs that say how many answers failed",
  (h) => {
    let worker: RunningWorker;
    const engine = new ScriptedVendor();
    beforeAll(async () => {
      await engine.start(h);
      worker = await h.startWorker(undefined, { pollIntervalMs: 20 });
    });
    afterAll(async () => {
      await worker.stop(1_000);
      await engine.stop();
    });

    async function scheduleWith(t: Tenant, engines: string[], alertRules: unknown[]) {
      const project = (
        await h.call("createProject", {
          key: t.key,
          body: {
            name: "Acme CRM",
            primary_domain: "acmecrm.com",
            competitors: [{ name: "HubSpot" }],
            prompts: ["best CRM?", "CRM for agencies?"],
            engines,
          },
        })
      ).json();
      const schedule = (
        await h.call("createMonitoring", {
          key: t.key,
          body: { project_id: project.id, schedule: { every: "day" }, alert_rules: alertRules },
        })
      ).json();
      return { project, schedule };
    }

    async function runNow(t: Tenant, scheduleId: string) {
      const run = await h.call("runMonitoring", { key: t.key, params: { id: scheduleId } });
      expect(run.statusCode, run.body).toBe(202);
      await settle(h, t.workspace.id);
      h.clock.advance(60_000);
    }

    it("refuses to acknowledge or reopen the alerts of a deleted brand, and counts them nowhere", async () => {
      const t = await h.tenant("agency");
      engine.mentionBrand = false;
      const { project, schedule } = await scheduleWith(t, ["scripted"], [{ type: "visibility_below", threshold: 0.5 }]);
      await runNow(t, schedule.id);
      const alerts = (await h.call("listAlerts", { key: t.key, query: { schedule_id: schedule.id } })).json().data;
      expect(alerts).toHaveLength(1);
      const id = alerts[0].id as string;
      expect((await h.call("deleteProject", { key: t.key, params: { id: project.id } })).statusCode).toBe(200);
      for (const operationId of ["acknowledgeAlert", "reopenAlert"]) {
        const res = await h.call(operationId, { key: t.key, params: { id } });
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().error.code).toBe("NOT_FOUND");
      }
      expect((await h.call("listAlerts", { key: t.key, query: { status: "open" } })).json().data).toEqual([]);
    });

    it("acknowledges and reopens an alert, lists open and acknowledged ones apart, and says it in the rule's words", async () => {
      const t = await h.tenant("agency");
      engine.mentionBrand = false;
      const { schedule } = await scheduleWith(t, ["scripted"], [{ type: "visibility_below", threshold: 0.5 }]);
      await runNow(t, schedule.id);
      const list = async (status?: "open" | "acknowledged") =>
        (
          await h.call("listAlerts", {
            key: t.key,
            query: { schedule_id: schedule.id, ...(status === undefined ? {} : { status }) },
          })
        ).json().data as { id: string; status: string; message: string; acknowledged_at: string | null }[];

      const [alert] = await list();
      expect(alert).toMatchObject({ status: "open", acknowledged_at: null, acknowledged_by: null });
      // The message starts with the words the rule is described with in the dashboard.
      expect(alert?.message).toBe("Visibility falls below 50%: 0% across engines.");
      const id = alert?.id ?? "";

      const acknowledged = await h.call("acknowledgeAlert", { key: t.key, params: { id } });
      expect(acknowledged.statusCode, acknowledged.body).toBe(200);
      expect(acknowledged.json()).toMatchObject({
        id,
        status: "acknowledged",
        acknowledged_at: h.clock.now().toISOString(),
      });
      expect(acknowledged.json().acknowledged_by).toEqual(expect.any(String));
      expect(await list("open")).toEqual([]);
      expect((await list("acknowledged")).map((a) => a.id)).toEqual([id]);

      // Acknowledging again keeps the first acknowledgement.
      h.clock.advance(60_000);
      const again = await h.call("acknowledgeAlert", { key: t.key, params: { id } });
      expect(again.json().acknowledged_at).toBe(acknowledged.json().acknowledged_at);

      const reopened = await h.call("reopenAlert", { key: t.key, params: { id } });
      expect(reopened.statusCode, reopened.body).toBe(200);
      expect(reopened.json()).toMatchObject({ status: "open", acknowledged_at: null, acknowledged_by: null });
      expect((await list("open")).map((a) => a.id)).toEqual([id]);
      expect(await list("acknowledged")).toEqual([]);
    });

    it("refuses another workspace's alert, an unknown one, a bad status filter and a key without the monitoring scope", async () => {
      const t = await h.tenant("agency");
      engine.mentionBrand = false;
      const { schedule } = await scheduleWith(
        t,
        ["scripted"],
        [{ type: "brand_disappeared" }, { type: "visibility_below", threshold: 0.5 }],
      );
      await runNow(t, schedule.id);
      const [alert] = (await h.call("listAlerts", { key: t.key, query: { schedule_id: schedule.id } })).json().data;
      const other = await h.tenant("agency");
      const foreign = await h.call("acknowledgeAlert", { key: other.key, params: { id: alert.id } });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.code).toBe("NOT_FOUND");
      const unknown = await h.call("reopenAlert", { key: t.key, params: { id: "alt_doesnotexist" } });
      expect(unknown.statusCode).toBe(404);
      const badFilter = await h.call("listAlerts", { key: t.key, query: { status: "closed" } });
      expect(badFilter.statusCode).toBe(400);
      expect(badFilter.json().error.code).toBe("VALIDATION_ERROR");
      const reader = await h.tenant("agency", ["read"]);
      const readOnly = await h.call("acknowledgeAlert", { key: reader.key, params: { id: alert.id } });
      expect(readOnly.statusCode).toBe(403);
      // Nothing changed.
      const after = (await h.call("listAlerts", { key: t.key, query: { status: "open" } })).json().data;
      expect(after.map((a: { id: string }) => a.id)).toContain(alert.id);
    });

    it("keeps with a run how many of its answers failed, of how many, and why", async () => {
      const t = await h.tenant("agency");
      engine.mentionBrand = true;
      // chatgpt has no key on this server: its answers fail, the scripted engine's succeed.
      const { schedule } = await scheduleWith(t, ["scripted", "chatgpt"], []);
      await runNow(t, schedule.id);
      const [run] = (await h.call("listMonitoringRuns", { key: t.key, params: { id: schedule.id } })).json().data;
      expect(run.status).toBe("completed");
      expect(run.failures).toEqual({
        failed: 2,
        total: 4,
        errors: [
          { engine: "chatgpt", code: "ENGINE_FAILURE", message: expect.stringContaining("OPENAI_API_KEY"), answers: 2 },
        ],
      });
      const analysis = (await h.call("getAnalysis", { key: t.key, params: { id: run.analysis_id } })).json();
      expect(analysis).toMatchObject({ status: "completed", progress: { total: 4, succeeded: 2, failed: 2 } });

      // A run without failures says so too; the schedule's last run carries the same count.
      const clean = await scheduleWith(t, ["scripted"], []);
      await runNow(t, clean.schedule.id);
      const read = (await h.call("getMonitoring", { key: t.key, params: { id: clean.schedule.id } })).json();
      expect(read.last_run.failures).toEqual({ failed: 0, total: 2, errors: [] });
    });
  },
  {
    config: {
      engines: {
        ...defaultEngineConfig(),
        custom: [{ name: "scripted", baseUrl: "http://127.0.0.1:9", model: "scripted-1", apiKey: null }],
      },
    },
  },
);
