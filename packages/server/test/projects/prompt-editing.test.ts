import { expect, it } from "vitest";
import { describeEachDialect } from "../helpers/harness.ts";

describeEachDialect("one prompt at a time: add, reword, tag, pause and remove", (h) => {
  async function brand() {
    const t = await h.tenant();
    const project = (
      await h.call("createProject", {
        key: t.key,
        body: {
          name: "Acme",
          primary_domain: "acme.com",
          prompts: ["best crm?", "cheap crm?"],
          prompt_tags: { "best crm?": ["funnel:awareness"] },
          paused_prompts: ["cheap crm?"],
        },
      })
    ).json();
    const params = { id: project.id as string };
    return { t, params };
  }

  it("adds a prompt with its tags and pause, keeping the others' tags and pauses", async () => {
    const { t, params } = await brand();
    const res = await h.call("addPrompt", {
      key: t.key,
      params,
      body: { prompt: "  crm   for agencies? ", tags: ["Persona:Agency"], paused: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      prompts: ["best crm?", "cheap crm?", "crm for agencies?"],
      prompt_tags: { "best crm?": ["funnel:awareness"], "crm for agencies?": ["persona:agency"] },
      paused_prompts: ["cheap crm?", "crm for agencies?"],
    });
  });

  it("keeps both of two prompts added at once", async () => {
    const { t, params } = await brand();
    const [a, b] = await Promise.all([
      h.call("addPrompt", { key: t.key, params, body: { prompt: "first new?" } }),
      h.call("addPrompt", { key: t.key, params, body: { prompt: "second new?" } }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const project = (await h.call("getProject", { key: t.key, params })).json();
    expect([...project.prompts].sort()).toEqual(["best crm?", "cheap crm?", "first new?", "second new?"]);
  });

  it("rewords a prompt: its tags and pause follow it, and the event names the old list", async () => {
    const { t, params } = await brand();
    const res = await h.call("changePrompt", {
      key: t.key,
      params,
      body: { prompt: "BEST CRM?", text: "best CRM for startups?" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      prompts: ["best CRM for startups?", "cheap crm?"],
      prompt_tags: { "best CRM for startups?": ["funnel:awareness"] },
      paused_prompts: ["cheap crm?"],
    });
    const events = await h.deps.db
      .selectFrom("events")
      .select(["type", "data"])
      .where("workspace_id", "=", t.workspace.id)
      .where("type", "=", "project.updated")
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]?.data ?? "{}").previous_attributes.prompts).toEqual(["best crm?", "cheap crm?"]);
  });

  it("tags, resumes and pauses a prompt, and removes one with its tags and pause", async () => {
    const { t, params } = await brand();
    const tagged = await h.call("changePrompt", {
      key: t.key,
      params,
      body: { prompt: "cheap crm?", tags: ["price"], paused: false },
    });
    expect(tagged.json()).toMatchObject({
      prompt_tags: { "best crm?": ["funnel:awareness"], "cheap crm?": ["price"] },
      paused_prompts: [],
    });
    const untagged = await h.call("changePrompt", { key: t.key, params, body: { prompt: "best crm?", tags: [] } });
    expect(untagged.json().prompt_tags).toEqual({ "cheap crm?": ["price"] });
    const removed = await h.call("removePrompt", { key: t.key, params, query: { prompt: "Cheap CRM?" } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ prompts: ["best crm?"], prompt_tags: {}, paused_prompts: [] });
  });

  it("refuses a duplicate, an unknown prompt, a rewording onto another and a bad tag, changing nothing", async () => {
    const { t, params } = await brand();
    const before = (await h.call("getProject", { key: t.key, params })).json();
    const refusals = [
      await h.call("addPrompt", { key: t.key, params, body: { prompt: "Best  CRM?" } }),
      await h.call("addPrompt", { key: t.key, params, body: { prompt: "new?", tags: ["no/slash"] } }),
      await h.call("changePrompt", { key: t.key, params, body: { prompt: "unknown?", paused: true } }),
      await h.call("changePrompt", { key: t.key, params, body: { prompt: "best crm?", text: "CHEAP crm?" } }),
      await h.call("removePrompt", { key: t.key, params, query: { prompt: "unknown?" } }),
    ];
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
    expect((await h.call("getProject", { key: t.key, params })).json()).toEqual(before);
  });
});
