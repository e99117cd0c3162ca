import { expect, it } from "vitest";
import { describeEachDialect } from "../helpers/harness.ts";

const acme = {
  name: "Acme",
  primary_domain: "https://www.Acme.com/",
  other_domains: ["acme.io", "ACME.COM", "shop.acme.io"],
  aliases: ["Acme Corp", "acme corp", "ACME"],
  competitors: [
    { name: "Globex", domains: ["globex.com"], aliases: ["Globex Corporation"] },
    { name: "Initech", domains: [] },
  ],
  prompts: ["best crm for startups", "  best crm for startups ", "which CRM integrates with Slack?"],
  engines: ["sandbox", "chatgpt"],
  country: "us",
  language: "en-us",
};

describeEachDialect("projects API, happy paths", (h) => {
  it("creates a project, normalises its settings and records project.created in the outbox", async () => {
    const t = await h.tenant();
    const res = await h.call("createProject", { key: t.key, body: acme });
    expect(res.statusCode).toBe(201);
    const project = res.json();
    expect(project).toMatchObject({
      object: "project",
      name: "Acme",
      primary_domain: "acme.com",
      other_domains: ["acme.io", "shop.acme.io"],
      aliases: ["Acme Corp"],
      competitors: [
        { name: "Globex", domains: ["globex.com"], aliases: ["Globex Corporation"] },
        { name: "Initech", domains: [], aliases: [] },
      ],
      prompts: ["best crm for startups", "which CRM integrates with Slack?"],
      engines: ["sandbox", "chatgpt"],
      country: "US",
      language: "en-US",
      created_at: "2026-11-21T12:00:00.000Z",
      updated_at: "2026-11-21T12:00:00.000Z",
    });
    expect(project.id).toMatch(/^prj_[0-9A-Za-z]{24}$/);

    const events = await h.deps.db
      .selectFrom("events")
      .selectAll()
      .where("workspace_id", "=", t.workspace.id)
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]?.type).toBe("project.created");
    expect(events[0]?.id).toMatch(/^evt_/);
    expect(JSON.parse(events[0]?.data ?? "{}")).toEqual({ object: project });
  });

  it("applies defaults for optional settings", async () => {
    const t = await h.tenant();
    const res = await h.call("createProject", { key: t.key, body: { name: "Solo", primary_domain: "solo.dev" } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      other_domains: [],
      aliases: [],
      case_sensitive_aliases: [],
      exclusions: [],
      citation_categories: [],
      competitors: [],
      prompts: [],
      engines: ["sandbox"],
      country: null,
      language: null,
    });
  });

  it("keeps the project's citation categories, normalised, and replaces them on update", async () => {
    const t = await h.tenant();
    const res = await h.call("createProject", {
      key: t.key,
      body: {
        name: "Acme",
        primary_domain: "acme.com",
        citation_categories: [
          { domain: "https://www.Industry-Weekly.com/", category: "news" },
          { domain: "industry-weekly.com", category: "news" },
          { domain: "forum.example.org", category: "social" },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const project = res.json();
    expect(project.citation_categories).toEqual([
      { domain: "industry-weekly.com", category: "news" },
      { domain: "forum.example.org", category: "social" },
    ]);
    const updated = await h.call("updateProject", {
      key: t.key,
      params: { id: project.id },
      body: { citation_categories: [{ domain: "reddit.com", category: "review" }] },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().citation_categories).toEqual([{ domain: "reddit.com", category: "review" }]);
    const read = await h.call("getProject", { key: t.key, params: { id: project.id } });
    expect(read.json().citation_categories).toEqual([{ domain: "reddit.com", category: "review" }]);
  });

  it("reads one project by id", async () => {
    const t = await h.tenant();
    const created = (await h.call("createProject", { key: t.key, body: acme })).json();
    const res = await h.call("getProject", { key: t.key, params: { id: created.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
  });

  it("lists newest first with cursors that stay stable while projects are added", async () => {
    const t = await h.tenant();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      h.clock.advance(1_000);
      const res = await h.call("createProject", {
        key: t.key,
        body: { name: `Brand ${i}`, primary_domain: `brand${i}.com` },
      });
      ids.push(res.json().id);
    }
    const newestFirst = [...ids].reverse();

    const first = (await h.call("listProjects", { key: t.key, query: { limit: 10 } })).json();
    expect(first.data.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(0, 10));
    expect(first.has_more).toBe(true);

    // A project added between pages lands before the cursor and shifts nothing.
    h.clock.advance(1_000);
    await h.call("createProject", { key: t.key, body: { name: "Late", primary_domain: "late.com" } });

    const second = (
      await h.call("listProjects", { key: t.key, query: { limit: 10, cursor: first.next_cursor } })
    ).json();
    expect(second.data.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(10, 20));
    const third = (
      await h.call("listProjects", { key: t.key, query: { limit: 10, cursor: second.next_cursor } })
    ).json();
    expect(third.data.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(20));
    expect(third.has_more).toBe(false);
    expect(third.next_cursor).toBeNull();

    const all = (await h.call("listProjects", { key: t.key })).json();
    expect(all.data).toHaveLength(20);
  });

  it("orders projects created in the same millisecond deterministically across pages", async () => {
    const t = await h.tenant();
    const ids = new Set<string>();
    for (let i = 0; i < 7; i++) {
      ids.add(
        (
          await h.call("createProject", { key: t.key, body: { name: `Same ${i}`, primary_domain: `same${i}.com` } })
        ).json().id,
      );
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (
        await h.call("listProjects", { key: t.key, query: cursor === undefined ? { limit: 3 } : { limit: 3, cursor } })
      ).json();
      seen.push(...page.data.map((p: { id: string }) => p.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(ids);
  });

  it("updates only the fields sent and records project.updated with previous_attributes", async () => {
    const t = await h.tenant();
    const created = (await h.call("createProject", { key: t.key, body: acme })).json();
    h.clock.advance(60_000);
    const res = await h.call("updateProject", {
      key: t.key,
      params: { id: created.id },
      body: { name: "Acme Inc", country: null, prompts: ["best crm"] },
    });
    expect(res.statusCode).toBe(200);
    const updated = res.json();
    expect(updated).toEqual({
      ...created,
      name: "Acme Inc",
      country: null,
      prompts: ["best crm"],
      updated_at: h.clock.now().toISOString(),
    });

    const events = await h.deps.db
      .selectFrom("events")
      .selectAll()
      .where("workspace_id", "=", t.workspace.id)
      .where("type", "=", "project.updated")
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]?.data ?? "{}")).toEqual({
      object: updated,
      previous_attributes: { name: "Acme", country: "US", prompts: created.prompts },
    });
  });

  it("writes nothing and emits nothing when a PATCH changes no setting", async () => {
    const t = await h.tenant();
    const created = (await h.call("createProject", { key: t.key, body: acme })).json();
    h.clock.advance(60_000);
    const res = await h.call("updateProject", {
      key: t.key,
      params: { id: created.id },
      body: { name: "  Acme ", primary_domain: "acme.com", aliases: ["Acme Corp"] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
    expect(await h.count("events", t.workspace.id)).toBe(1);
  });

  it("lets a key with only the read scope list and read projects", async () => {
    const t = await h.tenant();
    const created = (await h.call("createProject", { key: t.key, body: acme })).json();
    const reader = await h.key(t.workspace.id, ["read"]);
    expect((await h.call("listProjects", { key: reader })).statusCode).toBe(200);
    expect((await h.call("getProject", { key: reader, params: { id: created.id } })).json().id).toBe(created.id);
  });
});
