import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { startFakeChatCompletions } from "../helpers/fake-vendors/index.ts";
import { describeEachDialect } from "../helpers/harness.ts";

// An engine whose answer a test sets: Perplexity's API, faked.
const vendor = await startFakeChatCompletions({ flavour: "perplexity" });
afterAll(() => vendor.stop());

const base = { name: "Target", primary_domain: "target.com" };

describeEachDialect("projects: exclusion phrases and case-sensitive aliases", (h) => {
  it("stores them, cleaned and without duplicates, for the brand and each competitor", async () => {
    const t = await h.tenant();
    const res = await h.call("createProject", {
      key: t.key,
      body: {
        ...base,
        case_sensitive_aliases: ["TGT", " TGT ", "Tgt"],
        exclusions: ["target  audience", "Target Audience", "on target"],
        competitors: [
          { name: "SAP", case_sensitive_aliases: ["SAP", "S/4HANA"] },
          { name: "Walmart", domains: ["walmart.com"] },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const project = res.json();
    expect(project).toMatchObject({
      case_sensitive_aliases: ["TGT", "Tgt"],
      exclusions: ["target audience", "on target"],
      competitors: [
        { name: "SAP", domains: [], aliases: [], case_sensitive_aliases: ["S/4HANA"] },
        { name: "Walmart", domains: ["walmart.com"], aliases: [], case_sensitive_aliases: [] },
      ],
    });
    const read = await h.call("getProject", { key: t.key, params: { id: project.id } });
    expect(read.json()).toEqual(project);
  });

  it("defaults to none, and a change of either is a project.updated with the previous value", async () => {
    const t = await h.tenant();
    const created = (await h.call("createProject", { key: t.key, body: base })).json();
    expect(created).toMatchObject({ case_sensitive_aliases: [], exclusions: [] });
    const res = await h.call("updateProject", {
      key: t.key,
      params: { id: created.id },
      body: { exclusions: ["target audience"], competitors: [{ name: "SAP", case_sensitive_aliases: ["SAP"] }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().exclusions).toEqual(["target audience"]);
    const event = await h.deps.db
      .selectFrom("events")
      .select("data")
      .where("workspace_id", "=", t.workspace.id)
      .where("type", "=", "project.updated")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.data).previous_attributes).toEqual({ exclusions: [], competitors: [] });
    // The same again changes nothing and records nothing.
    await h.call("updateProject", {
      key: t.key,
      params: { id: created.id },
      body: { exclusions: ["target  audience "] },
    });
    expect(await h.count("events", t.workspace.id)).toBe(2);
  });

  it("reads projects stored before the fields existed as having none", async () => {
    const t = await h.tenant();
    const created = (
      await h.call("createProject", { key: t.key, body: { ...base, competitors: [{ name: "Walmart" }] } })
    ).json();
    // A competitor as stored before case-sensitive aliases existed.
    await h.deps.db
      .updateTable("projects")
      .set({ competitors: JSON.stringify([{ name: "Walmart", domains: [], aliases: [] }]) })
      .where("id", "=", created.id)
      .execute();
    const read = (await h.call("getProject", { key: t.key, params: { id: created.id } })).json();
    expect(read.competitors).toEqual([{ name: "Walmart", domains: [], aliases: [], case_sensitive_aliases: [] }]);
  });

  it("refuses too many, too long, empty and contradictory values, and changes nothing", async () => {
    const t = await h.tenant();
    const cases: [unknown, string[]][] = [
      [{ exclusions: Array.from({ length: 51 }, (_, i) => `phrase ${i}`) }, ["exclusions"]],
      [{ exclusions: ["x".repeat(101), ""] }, ["exclusions[0]", "exclusions[1]"]],
      [{ exclusions: ["   "] }, ["exclusions[0]"]],
      [{ exclusions: "target audience" }, ["exclusions"]],
      [{ case_sensitive_aliases: [" "] }, ["case_sensitive_aliases[0]"]],
      [{ case_sensitive_aliases: [42] }, ["case_sensitive_aliases[0]"]],
      [{ competitors: [{ name: "SAP", case_sensitive_aliases: [""] }] }, ["competitors[0].case_sensitive_aliases[0]"]],
      [{ case_sensitive_aliases: ["SAP"], competitors: [{ name: "sap" }] }, ["competitors[0].name"]],
    ];
    for (const [extra, fields] of cases) {
      const res = await h.call("createProject", { key: t.key, body: { ...base, ...(extra as object) } });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      const error = res.json().error;
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(error.details.map((d: { field?: string }) => d.field)).toEqual(fields);
    }
    expect(await h.count("projects", t.workspace.id)).toBe(0);

    const created = (await h.call("createProject", { key: t.key, body: base })).json();
    const bad = await h.call("updateProject", {
      key: t.key,
      params: { id: created.id },
      body: { exclusions: ["fine", " "] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe("exclusions[1]: must not be empty");
    const read = (await h.call("getProject", { key: t.key, params: { id: created.id } })).json();
    expect(read.exclusions).toEqual([]);
  });
});

describeEachDialect(
  "projects: the measurement reads exclusion phrases and case-sensitive aliases",
  (h) => {
    beforeAll(async () => {
      await h.startWorker();
    });

    it("in analyses, and in re-measures after they change", async () => {
      const t = await h.tenant("agency");
      const project = (
        await h.call("createProject", {
          key: t.key,
          body: {
            name: "Acme",
            primary_domain: "acme.com",
            exclusions: ["Acme Widget Museum"],
            competitors: [{ name: "SAP SE", case_sensitive_aliases: ["SAP"] }],
            prompts: ["best tool for a small team"],
            engines: ["perplexity"],
          },
        })
      ).json();
      vendor.setAnswer({
        text: "Skip the Acme Widget Museum tour, it drains you. SAP will sap your energy too. Acme is still the best tool.",
        citations: [],
      });
      const analysis = await h.call("analyze", { key: t.key, body: { project_id: project.id, wait: 30 } });
      expect(analysis.statusCode, analysis.body).toBe(200);
      const [result] = (await h.call("listResults", { key: t.key, query: { project_id: project.id } })).json().data;
      // "Acme Widget Museum" does not count; "SAP" does, "sap your energy" does not.
      expect(result.brand).toMatchObject({ mentioned: true, mentions: 1 });
      expect(result.competitors).toMatchObject([{ name: "SAP SE", mentioned: true, mentions: 1 }]);
      // The engine is asked the prompt as a user would, never told the brand.
      expect(JSON.stringify(vendor.requests.at(-1)?.body)).not.toContain("Acme");

      await h.call("updateProject", { key: t.key, params: { id: project.id }, body: { exclusions: [] } });
      const queued = (await h.call("remeasureProject", { key: t.key, params: { id: project.id } })).json();
      const deadline = Date.now() + 15_000;
      for (;;) {
        const r = (
          await h.call("getRemeasure", { key: t.key, params: { id: project.id, remeasure_id: queued.id } })
        ).json();
        if (r.status === "completed") {
          expect(r).toMatchObject({ total: 1, done: 1, changed: 1 });
          break;
        }
        if (Date.now() > deadline) expect.fail(`remeasure is still ${r.status}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const [after] = (await h.call("listResults", { key: t.key, query: { project_id: project.id } })).json().data;
      expect(after.brand).toMatchObject({ mentioned: true, mentions: 2 });
    });
  },
  {
    config: {
      engines: {
        ...defaultEngineConfig(),
        vendors: {
          ...defaultEngineConfig().vendors,
          perplexity: { apiKey: "pplx-test", baseUrl: vendor.url, model: "sonar" },
        },
        maxRetries: 0,
      },
    },
  },
);
