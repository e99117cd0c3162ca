import { expect, it } from "vitest";
import { describeEachDialect } from "../helpers/harness.ts";

const CATEGORIES = ["owned", "competitor", "social", "reference", "news", "review", "other"];

describeEachDialect("citation categories on stored results", (h) => {
  it("gives each citation of a result its category, and derives it for results stored before categories", async () => {
    await h.startWorker();
    const t = await h.tenant("agency");
    const project = (
      await h.call("createProject", {
        key: t.key,
        body: {
          name: "Acme CRM",
          primary_domain: "acmecrm.com",
          competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }],
          prompts: ["best CRM for a small agency", "cheapest CRM for startups"],
          citation_categories: [{ domain: "reddit.com", category: "review" }],
        },
      })
    ).json();
    const run = await h.call("analyze", {
      key: t.key,
      body: { project_id: project.id, engines: ["sandbox"], samples: 3, wait: 30 },
    });
    expect(run.statusCode, run.body).toBe(200);
    const list = async () =>
      (await h.call("listResults", { key: t.key, query: { project_id: project.id, limit: 100 } })).json().data as {
        id: string;
        citations: { domain: string; brand: boolean; competitor: string | null; category: string }[];
      }[];
    const fresh = await list();
    const citations = fresh.flatMap((r) => r.citations);
    expect(citations.length).toBeGreaterThan(0);
    for (const c of citations) {
      expect(CATEGORIES).toContain(c.category);
      if (c.brand) expect(c.category).toBe("owned");
      else if (c.competitor !== null) expect(c.category).toBe("competitor");
      if (c.domain === "reddit.com") expect(c.category).toBe("review");
      if (c.domain === "en.wikipedia.org") expect(c.category).toBe("reference");
    }

    // Rows measured before categories existed: the category is absent from the stored JSON.
    const rows = await h.deps.db
      .selectFrom("results")
      .select(["id", "measure"])
      .where("workspace_id", "=", t.workspace.id)
      .execute();
    for (const row of rows) {
      if (row.measure === null) continue;
      const measure = typeof row.measure === "string" ? JSON.parse(row.measure) : row.measure;
      for (const c of measure.citations) delete c.category;
      await h.deps.db
        .updateTable("results")
        .set({ measure: JSON.stringify(measure) })
        .where("workspace_id", "=", t.workspace.id)
        .where("id", "=", row.id)
        .execute();
    }
    const old = await list();
    for (const result of old) {
      const before = fresh.find((r) => r.id === result.id);
      for (const [i, c] of result.citations.entries()) {
        // Derived from the built-in list: the project's override is not known to old rows.
        const expected = c.domain === "reddit.com" ? "social" : before?.citations[i]?.category;
        expect(c.category, c.domain).toBe(expected);
      }
    }
  });
});
