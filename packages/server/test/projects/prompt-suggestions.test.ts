import { expect, it } from "vitest";
import type { EngineAdapter, EngineQuery } from "../../src/services/engines/types.ts";
import { usageOf } from "../../src/services/engines/usage.ts";
import { FUNNEL_STAGES, parseQuestions } from "../../src/services/prompt-suggestions/instruction.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";

const BRAND = {
  name: "Acme CRM",
  aliases: ["Acme", "AcmeSuite"],
  primary_domain: "acmecrm.com",
  category: "CRM for small agencies",
  competitors: [{ name: "HubSpot" }, { name: "Pipedrive" }],
  prompts: ["What should I look for in CRM for small agencies?", "is Acme good for agencies?"],
  language: "en",
  country: "US",
};

/** A vendor that answers with a fixed text, and remembers what it was asked. */
function scripted(name: string, text: string | null): EngineAdapter & { asked: EngineQuery[] } {
  const asked: EngineQuery[] = [];
  return {
    name,
    reach: { persona: "system", country: "user_location", conversation: "history" },
    asked,
    ask: async (query) => {
      asked.push(query);
      if (text === null) {
        return {
          ok: false,
          error: { code: "ENGINE_FAILURE", message: "vendor is down", retryable: false, status: 500, retryAfter: null },
        };
      }
      return { ok: true, answer: { text, model: `${name}-test`, citations: [], searches: [], usage: usageOf({}) } };
    },
  };
}

async function brand(h: Harness, t: Tenant, body: Record<string, unknown> = {}) {
  const res = await h.call("createProject", { key: t.key, body: { ...BRAND, ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const used = async (h: Harness, t: Tenant) => (await h.call("getUsage", { key: t.key })).json().credits;

it("reads numbered and bulleted questions, with their stage, and nothing else", () => {
  const text = [
    "Sure! Here are some questions:",
    "1. [awareness] What is a CRM and why would an agency need one?",
    "2) **[Consideration]** Which CRM works with Slack?",
    "- (decision) How much should a small agency pay for a CRM?",
    "* Decision: Which CRM has the best onboarding?",
    "• “Is a free CRM enough for five people?”",
    "3. [awareness] Not a question.",
    "A line that is not a list item but ends with a question?",
    "4. Short?",
  ].join("\n");
  expect(parseQuestions(text)).toEqual([
    { question: "What is a CRM and why would an agency need one?", stage: "awareness" },
    { question: "Which CRM works with Slack?", stage: "consideration" },
    { question: "How much should a small agency pay for a CRM?", stage: "decision" },
    { question: "Which CRM has the best onboarding?", stage: "decision" },
    { question: "Is a free CRM enough for five people?", stage: null },
  ]);
});

describeEachDialect("prompt suggestions", (h) => {
  it("suggests buyers' questions from the sandbox: count respected, never the brand, none tracked already", async () => {
    const t = await h.tenant("growth");
    const project = await brand(h, t);
    const before = await used(h, t);
    const res = await h.call("suggestPrompts", { key: t.key, params: { id: project.id }, body: { count: 12 } });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json();
    expect(list).toMatchObject({ object: "list", engine: "sandbox", instruction_version: "1" });
    expect(list.data).toHaveLength(12);
    const prompts: string[] = list.data.map((s: { prompt: string }) => s.prompt);
    expect(new Set(prompts.map((p) => p.toLowerCase())).size).toBe(12);
    for (const suggestion of list.data) {
      expect(suggestion.prompt).toMatch(/\?$/);
      expect(suggestion.prompt.toLowerCase()).not.toMatch(/acme/);
      expect(suggestion.tags).toHaveLength(1);
      expect(FUNNEL_STAGES.map((stage) => `funnel:${stage}`)).toContain(suggestion.tags[0]);
    }
    expect(prompts).not.toContain(BRAND.prompts[0]);
    // Deterministic: the same brand gets the same list; it costs one credit each time.
    const again = await h.call("suggestPrompts", { key: t.key, params: { id: project.id }, body: { count: 12 } });
    expect(again.json()).toEqual(list);
    expect((await used(h, t)).used).toBe(before.used + 2);
    // Ten by default, and the body may be left out.
    const plain = await h.app.inject({
      method: "POST",
      url: `/v1/projects/${project.id}/prompt-suggestions`,
      headers: { authorization: t.authorization },
    });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().data).toHaveLength(10);

    // Accepting is adding them to the prompts, with their tags, through the ordinary update.
    const accepted = list.data.slice(0, 2);
    const updated = await h.call("updateProject", {
      key: t.key,
      params: { id: project.id },
      body: {
        prompts: [...project.prompts, ...accepted.map((s: { prompt: string }) => s.prompt)],
        prompt_tags: Object.fromEntries(accepted.map((s: { prompt: string; tags: string[] }) => [s.prompt, s.tags])),
      },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const next = (
      await h.call("suggestPrompts", { key: t.key, params: { id: project.id }, body: { count: 20 } })
    ).json();
    for (const s of accepted) expect(next.data.map((d: { prompt: string }) => d.prompt)).not.toContain(s.prompt);
  });

  it("sends a real engine an instruction without the brand, and drops what names it or is tracked", async () => {
    const t = await h.tenant("agency");
    const project = await brand(h, t);
    const engine = scripted(
      "chatgpt",
      [
        "1. [awareness] Why do agencies use a CRM at all?",
        "2. [consideration] Is Acme better than HubSpot for agencies?",
        "3. [consideration] What do people say about ACMESUITE?",
        "4. [decision] Is acmecrm.com trustworthy?",
        "5. [consideration] What should I look for in CRM for small agencies?",
        "6. [awareness] why do agencies use a CRM at all?",
        "7. [decision] Which CRM gives small agencies the best value?",
        "8. Which CRM is best for a five-person agency?",
      ].join("\n"),
    );
    h.deps.engines.use(engine);
    const res = await h.call("suggestPrompts", {
      key: t.key,
      params: { id: project.id },
      body: { engine: "chatgpt", count: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { prompt: "Why do agencies use a CRM at all?", tags: ["funnel:awareness"] },
      { prompt: "Which CRM gives small agencies the best value?", tags: ["funnel:decision"] },
      { prompt: "Which CRM is best for a five-person agency?", tags: [] },
    ]);
    const [asked] = engine.asked;
    expect(asked?.prompt).toContain("CRM for small agencies");
    expect(asked?.prompt).toContain("HubSpot");
    expect(asked?.prompt).toContain(BRAND.prompts[0]);
    // The tracked prompt that names the brand is not shown to the engine either.
    for (const own of ["Acme", "acmecrm", "AcmeSuite"])
      expect(asked?.prompt.toLowerCase()).not.toContain(own.toLowerCase());
    expect(asked).toMatchObject({ country: "US", language: "en" });
    expect((await used(h, t)).by_engine).toEqual({ chatgpt: 1 });

    // A failing engine: ENGINE_FAILURE, and the credit given back.
    h.deps.engines.use(scripted("chatgpt", null));
    const failed = await h.call("suggestPrompts", {
      key: t.key,
      params: { id: project.id },
      body: { engine: "chatgpt" },
    });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error.code).toBe("ENGINE_FAILURE");
    expect((await used(h, t)).used).toBe(1);
  });

  it("refuses an engine outside the plan, an unknown one, a brand without a category, and another workspace's brand", async () => {
    const t = await h.tenant("growth");
    const project = await brand(h, t);
    const call = (body: Record<string, unknown>, id = project.id, key = t.key) =>
      h.call("suggestPrompts", { key, params: { id }, body });

    const outside = await call({ engine: "claude" });
    expect(outside.statusCode).toBe(403);
    expect(outside.json().error.code).toBe("ENGINE_NOT_ALLOWED");
    const unknown = await call({ engine: "askjeeves" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details[0].field).toBe("engine");
    for (const count of [0, 21, 1.5, "3"]) {
      const bad = await call({ count });
      expect(bad.statusCode, `count ${count}`).toBe(400);
      expect(bad.json().error.details[0].field).toBe("count");
    }
    expect((await call({ samples: 2 })).statusCode).toBe(400);

    const bare = await brand(h, t, { name: "Bare", category: undefined });
    const uncategorised = await call({}, bare.id);
    expect(uncategorised.statusCode).toBe(400);
    expect(uncategorised.json().error.details[0].field).toBe("category");
    const selfNamed = await brand(h, t, { name: "Named", category: "Named-style CRM" });
    expect((await call({}, selfNamed.id)).json().error.details[0]).toMatchObject({ field: "category" });

    const other = await h.tenant("growth");
    const foreign = await call({}, project.id, other.key);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("NOT_FOUND");
    // Reading keys may not ask for suggestions: they cost a credit.
    const reader = await h.key(t.workspace.id, ["read"]);
    expect((await call({}, project.id, reader)).json().error.code).toBe("INSUFFICIENT_SCOPE");
    expect((await used(h, t)).used).toBe(0);
  });
});
