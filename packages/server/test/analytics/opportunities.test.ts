import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { contradictions } from "../../src/services/opportunities/facts.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";
import { ScriptedVendor } from "../helpers/scripted-vendor.ts";

const FACTS = {
  founded_year: 2015,
  headquarters: "Austin, Texas",
  starting_price: { amount: 29, currency: "USD", period: "month" as const },
  free_plan: true,
  features: ["Slack integration"],
};

describe("fact checking an answer against the fact sheet", () => {
  const check = (text: string) =>
    contradictions(text, FACTS, ["Acme CRM", "Acme"], ["HubSpot", "Pipedrive"]).map((c) => [c.field, c.stated]);

  it("finds a wrong year, place, price, a denied free plan and a feature said to be missing", () => {
    expect(
      check(
        "Acme CRM was founded in 2009 and is headquartered in Denver, Colorado. Acme plans start at $49 per month. Acme has no free plan. Acme CRM lacks a Slack integration.",
      ),
    ).toEqual([
      ["founded_year", "2009"],
      ["headquarters", "Denver, Colorado"],
      ["starting_price", "49 USD"],
      ["free_plan", "no free plan"],
      ["features", "no Slack integration"],
    ]);
  });

  it("leaves right statements, other currencies and other brands' claims alone", () => {
    expect(
      check(
        "Acme CRM, founded in 2015, is based in Austin. Acme starts at $29/month or €27. HubSpot was founded in 2006 and Acme in 2015. Pipedrive lacks a Slack integration. Acme offers a free plan and a Slack integration.",
      ),
    ).toEqual([]);
    // A sentence naming a competitor too is not the brand's claim.
    expect(check("Unlike HubSpot, Acme CRM was founded in 2001.")).toEqual([]);
    // Typography and case do not hide the brand; a price within 10% is the same price.
    expect(check("ACME CRM’s plans start at $31.")).toEqual([]);
    expect(check("**Acme CRM** – pricing starts from 39 USD.")).toEqual([["starting_price", "39 USD"]]);
  });
});

interface Opportunity {
  id: string;
  kind: string;
  title: string;
  explanation: string;
  impact: number;
  answers: number;
  engines: string[];
  prompts: string[];
  domain: string | null;
  urls: string[];
  search: string | null;
  change: { before: { value: number }; after: { value: number }; difference: number; p_value: number } | null;
  fact: { field: string; expected: string; stated: string; excerpt: string } | null;
  evidence: string[];
}

const PROMPTS = ["best CRM for a small agency", "CRM with a good Slack integration"];

describeEachDialect(
  "opportunities",
  (h) => {
    const engine = new ScriptedVendor();
    let t: Tenant;
    let projectId: string;
    let before: string[];
    let after: string[];

    const analyze = async (body: Record<string, unknown>) => {
      const res = await h.call("analyze", { key: t.key, body: { project_id: projectId, wait: 30, ...body } });
      expect(res.statusCode, res.body).toBe(200);
      h.clock.advance(60_000);
      return res.json().id as string;
    };
    const resultsOf = async (analysisId: string) =>
      (await h.call("listResults", { key: t.key, query: { analysis_id: analysisId, limit: 100 } }))
        .json()
        .data.map((r: { id: string }) => r.id) as string[];
    const list = async (query: Record<string, string | number> = {}) => {
      const res = await h.call("listOpportunities", { key: t.key, params: { id: projectId }, query });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { computed_at: string; scanned: number; data: Opportunity[] };
    };

    beforeAll(async () => {
      await h.startWorker();
      await engine.start(h);
      t = await h.tenant("agency");
      projectId = (
        await h.call("createProject", {
          key: t.key,
          body: {
            name: "Acme CRM",
            aliases: ["Acme"],
            primary_domain: "acmecrm.com",
            competitors: [
              { name: "HubSpot", domains: ["hubspot.com"] },
              { name: "Pipedrive", domains: ["pipedrive.com"] },
            ],
            prompts: PROMPTS,
            facts: FACTS,
          },
        })
      ).json().id;
      // Sandbox answers about the same market: the realistic background.
      await analyze({ engines: ["sandbox"], samples: 2 });
      // The scripted engine names the brand in every answer, then in none, citing a review site.
      engine.say(
        "1. **Acme CRM** is a strong choice.\n2. **HubSpot** is popular.\n\nSource: https://acmecrm.com/pricing",
      );
      before = await resultsOf(await analyze({ engines: ["scripted"], samples: 5 }));
      engine.say(
        "1. **HubSpot** leads the category.\n2. **Pipedrive** is good for pipelines.\n\nCompare them on https://crmreviews.example/best-crm-2026 and https://hubspot.com/pricing.",
      );
      after = await resultsOf(await analyze({ engines: ["scripted"], samples: 5 }));
      // One answer, to another question, gets the brand's facts wrong.
      engine.say(
        "Acme CRM was founded in 2009 and is headquartered in Denver, Colorado. Acme CRM plans start at $49 per month. Acme CRM lacks a Slack integration.",
      );
      await analyze({ engines: ["scripted"], samples: 1, prompts: ["tell me about CRM vendors for agencies"] });
    });

    afterAll(async () => {
      await engine.stop();
    });

    it("shows a competitor-only site and a significant drop, ranked, with their evidence", async () => {
      const { data, scanned } = await list({ limit: 100 });
      expect(scanned).toBe(4 + 10 + 10 + 1);
      // Ranked: the most valuable first.
      expect(data.map((o) => o.impact)).toEqual([...data.map((o) => o.impact)].sort((a, b) => b - a));

      const gap = data.find((o) => o.kind === "citation_gap" && o.domain === "crmreviews.example");
      expect(gap).toMatchObject({
        title: "Get covered on crmreviews.example",
        answers: 10,
        engines: ["scripted"],
        prompts: [...PROMPTS].sort(),
        urls: ["https://crmreviews.example/best-crm-2026"],
      });
      expect(gap?.evidence).toHaveLength(5);
      for (const id of gap?.evidence ?? []) expect(after).toContain(id);
      // Never the brand's own site or a competitor's as a place to get covered.
      expect(data.filter((o) => o.kind === "citation_gap").map((o) => o.domain)).not.toContain("hubspot.com");
      expect(data.filter((o) => o.kind === "citation_gap").map((o) => o.domain)).not.toContain("acmecrm.com");

      const drops = data.filter((o) => o.kind === "visibility_drop");
      expect(drops.map((o) => o.prompts[0]).sort()).toEqual([...PROMPTS].sort());
      for (const drop of drops) {
        expect(drop.engines).toEqual(["scripted"]);
        expect(drop.change).toMatchObject({ before: { value: 1 }, after: { value: 0 }, difference: -1 });
        expect(drop.change?.p_value).toBeLessThan(0.05);
        expect(drop.answers).toBe(5);
        for (const id of drop.evidence) expect(after).toContain(id);
        // Named for people: the engine by its name (its id stays in `engines`), the figure by the glossary's.
        expect(drop.title).toBe(`Win back "${drop.prompts[0]}" on Scripted`);
        expect(drop.explanation).toMatch(
          /^Visibility fell from 100% \(\d+–100%, n = 5\) in the earlier answers to 0% \(0–\d+%, n = 5\) in the latest analysis: −100 pts \(p = /,
        );
      }
      // A drop is not also reported as "competitors preferred" for the same prompt and engine.
      expect(
        data.filter(
          (o) =>
            o.kind === "competitors_preferred" &&
            o.engines.includes("scripted") &&
            o.prompts.some((p) => PROMPTS.includes(p)),
        ),
      ).toEqual([]);

      // Evidence links resolve to the brand's stored answers.
      const res = await h.call("getResult", { key: t.key, params: { id: gap?.evidence[0] ?? "" } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ project_id: projectId, engine: "scripted", brand: { mentioned: false } });
      expect(before).not.toContain(gap?.evidence[0]);
    });

    it("finds the answer contradicting the fact sheet", async () => {
      const wrong = (await list({ kind: "wrong_facts" })).data;
      expect(wrong.map((o) => [o.fact?.field, o.fact?.expected, o.fact?.stated]).sort()).toEqual([
        ["features", "has Slack integration", "no Slack integration"],
        ["founded_year", "2015", "2009"],
        ["headquarters", "Austin, Texas", "Denver, Colorado"],
        ["starting_price", "29 USD per month", "49 USD"],
      ]);
      for (const o of wrong) {
        expect(o.answers).toBe(1);
        expect(o.prompts).toEqual(["tell me about CRM vendors for agencies"]);
        expect(o.fact?.excerpt).toContain("Acme CRM");
      }
    });

    it("is kept until an analysis or an edit changes what it rests on", async () => {
      const first = await list();
      h.clock.advance(1_000);
      expect((await list()).computed_at).toBe(first.computed_at);
      // Correcting the fact sheet to what the answer says: that contradiction goes.
      const patched = await h.call("updateProject", {
        key: t.key,
        params: { id: projectId },
        body: { facts: { ...FACTS, founded_year: 2009 } },
      });
      expect(patched.statusCode, patched.body).toBe(200);
      const edited = await list({ kind: "wrong_facts" });
      expect(edited.computed_at).not.toBe(first.computed_at);
      expect(edited.data.map((o) => o.fact?.field)).not.toContain("founded_year");
      // A new analysis naming the brand again: the drop is gone.
      engine.say("1. **Acme CRM** is back on top.\n2. **HubSpot** follows.");
      await analyze({ engines: ["scripted"], samples: 5 });
      const refreshed = await list({ limit: 100 });
      expect(Date.parse(refreshed.computed_at)).toBeGreaterThan(Date.parse(edited.computed_at));
      expect(refreshed.data.filter((o) => o.kind === "visibility_drop")).toEqual([]);
    });

    it("refuses bad input and other workspaces' brands", async () => {
      for (const query of [{ kind: "everything" }, { limit: 0 }, { limit: 101 }] as Record<string, string | number>[]) {
        const res = await h.call("listOpportunities", { key: t.key, params: { id: projectId }, query });
        expect(res.statusCode, JSON.stringify(query)).toBe(400);
        expect(res.json().error.code).toBe("VALIDATION_ERROR");
      }
      const other = await h.tenant("agency");
      const res = await h.call("listOpportunities", { key: other.key, params: { id: projectId } });
      expect(res.statusCode).toBe(404);
      const facts = await h.call("updateProject", {
        key: t.key,
        params: { id: projectId },
        body: { facts: { founded_year: "2015", starting_price: { amount: 29, currency: "usd" } } },
      });
      expect(facts.statusCode).toBe(400);
      expect(facts.json().error.code).toBe("VALIDATION_ERROR");
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
