import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_DESCRIPTORS } from "../../src/services/engines/catalog.ts";
import { answerCostMicros } from "../../src/services/engines/prices.ts";
import { defaultEngineConfig } from "../../src/services/engines/settings.ts";
import {
  type FakeAnswer,
  startFakeAnthropic,
  startFakeChatCompletions,
  startFakeDataForSeo,
  startFakeGemini,
  startFakeOpenAIResponses,
  startFakeSerpApi,
} from "../helpers/fake-vendors/index.ts";
import { type JsonValue, lastUserText, type RecordedRequest } from "../helpers/fake-vendors/server.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";

/**
 * Personas, countries and conversations (issue 29), end to end on both dialects: what reaches each
 * vendor (checked at its fake, which speaks the vendor's wire format and refuses a malformed
 * conversation as the vendor does), what is stored, and what is computed from it, recomputed here
 * from the stored answers.
 */

const openai = await startFakeOpenAIResponses({ utmSource: false });
const anthropic = await startFakeAnthropic();
const gemini = await startFakeGemini();
const perplexity = await startFakeChatCompletions({ flavour: "perplexity" });
const deepseek = await startFakeChatCompletions({ flavour: "deepseek" });
const serpapi = await startFakeSerpApi();
const dataforseo = await startFakeDataForSeo();
const fakes = [openai, anthropic, gemini, perplexity, deepseek, serpapi, dataforseo];
afterAll(async () => {
  for (const fake of fakes) await fake.stop();
});

const engines = defaultEngineConfig();
const point = (engine: keyof typeof engines.vendors, apiKey: string, baseUrl: string) => {
  engines.vendors[engine] = { ...engines.vendors[engine], apiKey, baseUrl };
};
point("chatgpt", "sk-test", openai.url);
point("claude", "sk-ant-test", anthropic.url);
point("gemini", "gemini-test", gemini.url);
point("perplexity", "pplx-test", perplexity.url);
point("deepseek", "ds-test", deepseek.url);
point("google_ai_overview", "serp-test", serpapi.url);
point("chatgpt_web", "login:password", dataforseo.url);
engines.timeoutMs = 10_000;
engines.maxRetries = 0;

const BRAND = {
  name: "Acme CRM",
  aliases: ["Acme"],
  primary_domain: "acmecrm.com",
  competitors: [
    { name: "HubSpot", domains: ["hubspot.com"] },
    { name: "Pipedrive", domains: ["pipedrive.com"] },
  ],
  prompts: ["best CRM for a small agency"],
};

const PERSONA = {
  name: "Cautious CFO",
  role: "Chief financial officer",
  company_size: "50–200 employees",
  industry: "Healthcare",
  constraints: "Must be HIPAA compliant; under $50 a seat",
  location: "Berlin, Germany",
  language: "German",
};

const json = (request: RecordedRequest | undefined): Record<string, JsonValue> =>
  (request?.body ?? {}) as Record<string, JsonValue>;
const since = (fake: { requests: RecordedRequest[] }, from: number) => fake.requests.slice(from);

describeEachDialect(
  "personas, countries and conversations",
  (h) => {
    let t: Tenant;
    let projectId: string;

    beforeAll(async () => {
      await h.startWorker();
      t = await h.tenant("agency");
      projectId = (await h.call("createProject", { key: t.key, body: BRAND })).json().id;
    });

    const analyze = async (body: Record<string, unknown>) => {
      const response = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, wait: 60, ...body },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const results = async (query: Record<string, string | number | boolean>) => {
      const out: Record<string, unknown>[] = [];
      let cursor: string | undefined;
      do {
        const page = (
          await h.call("listResults", {
            key: t.key,
            query: { project_id: projectId, limit: 100, ...query, ...(cursor === undefined ? {} : { cursor }) },
          })
        ).json();
        out.push(...page.data);
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
      return out;
    };

    it("sends a persona to each vendor in its own format: instructions, system prompt, or a preamble", async () => {
      const persona = (await h.call("createPersona", { key: t.key, params: { id: projectId }, body: PERSONA })).json();
      expect(persona).toMatchObject({ object: "persona", version: 1, active: true });
      expect(persona.context).toBe(
        "Context about the person asking. Role: Chief financial officer. Company size: 50–200 employees. Industry: Healthcare. Constraints: Must be HIPAA compliant; under $50 a seat. Location: Berlin, Germany. Preferred language: German.",
      );
      const marks = fakes.map((fake) => fake.requests.length);
      const analysis = await analyze({
        engines: ["chatgpt", "claude", "gemini", "perplexity", "deepseek", "google_ai_overview", "chatgpt_web"],
        country: null,
      });
      expect(analysis.personas).toEqual([{ id: persona.id, version: 1 }]);
      expect(analysis.progress).toMatchObject({ total: 7, succeeded: 7, failed: 0 });
      const [o, a, g, p, d, s, f] = fakes.map((fake, i) => since(fake, marks[i] ?? 0));
      // OpenAI Responses: the developer instructions.
      expect(json(o?.[0]).instructions).toBe(persona.context);
      expect(json(o?.[0]).input).toBe(BRAND.prompts[0]);
      // Anthropic: the top-level system prompt, never a message.
      expect(json(a?.[0]).system).toBe(persona.context);
      expect(json(a?.[0]).messages).toEqual([{ role: "user", content: BRAND.prompts[0] }]);
      // Gemini: the system instruction.
      expect(JSON.stringify(json(g?.[0]).systemInstruction)).toContain(persona.context);
      // Chat completions (Perplexity, DeepSeek): a system message first.
      for (const request of [p?.[0], d?.[0]]) {
        expect(json(request).messages).toEqual([
          { role: "system", content: persona.context },
          { role: "user", content: BRAND.prompts[0] },
        ]);
      }
      // Google search (SerpApi) and a scraped page (DataForSEO): typed before the question.
      expect(s?.[0]?.query.q).toBe(`${persona.context}\n\n${BRAND.prompts[0]}`);
      expect(((f?.[0]?.body ?? []) as { keyword: string }[])[0]?.keyword).toBe(
        `${persona.context}\n\n${BRAND.prompts[0]}`,
      );
      const stored = await results({ analysis_id: analysis.id });
      expect(stored).toHaveLength(7);
      for (const result of stored) expect(result).toMatchObject({ persona_id: persona.id, persona_version: 1 });

      // A new version: answers keep the one they were asked under.
      const changed = (
        await h.call("updatePersona", {
          key: t.key,
          params: { id: projectId, persona_id: persona.id },
          body: { constraints: "We can't use HubSpot" },
        })
      ).json();
      expect(changed.version).toBe(2);
      expect((await results({ analysis_id: analysis.id }))[0]).toMatchObject({ persona_version: 1 });
      // Switched off for the tests that follow.
      await h.call("updatePersona", {
        key: t.key,
        params: { id: projectId, persona_id: persona.id },
        body: { active: false },
      });
    });

    it("asks from a country in each vendor's own parameter, and an engine that cannot be placed refuses", async () => {
      const marks = fakes.map((fake) => fake.requests.length);
      const analysis = await analyze({
        engines: ["chatgpt", "claude", "gemini", "perplexity", "google_ai_overview", "chatgpt_web"],
        countries: ["DE"],
      });
      expect(analysis).toMatchObject({ country: "DE", countries: ["DE"], personas: [] });
      expect(analysis.progress).toMatchObject({ total: 6, succeeded: 6 });
      const [o, a, g, p, , s, f] = fakes.map((fake, i) => since(fake, marks[i] ?? 0));
      expect(json(o?.[0]).tools).toEqual([
        { type: "web_search", user_location: { type: "approximate", country: "DE" } },
      ]);
      expect(json(a?.[0]).tools).toMatchObject([{ user_location: { type: "approximate", country: "DE" } }]);
      expect(json(p?.[0]).web_search_options).toEqual({ user_location: { country: "DE" } });
      expect(json(g?.[0]).toolConfig).toEqual({ retrievalConfig: { latLng: { latitude: 52.52, longitude: 13.4 } } });
      expect(s?.[0]?.query.gl).toBe("de");
      expect(((f?.[0]?.body ?? []) as { location_code: number }[])[0]?.location_code).toBe(2276);
      for (const result of await results({ analysis_id: analysis.id })) expect(result.country).toBe("DE");

      // Named together in a request: refused before anything is asked or charged.
      const before = deepseek.requests.length;
      const refused = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, engines: ["chatgpt", "deepseek"], countries: ["DE"] },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.details).toEqual([
        { field: "engines[1]", issue: expect.stringContaining("deepseek cannot be asked as from DE") },
      ]);

      // From the brand's countries: the engine that cannot be placed is not asked, and says so.
      await h.call("updateProject", { key: t.key, params: { id: projectId }, body: { countries: ["DE", "FR"] } });
      const tracked = await analyze({ engines: ["chatgpt", "deepseek"] });
      expect(tracked.countries).toEqual(["DE", "FR"]);
      expect(tracked.progress).toMatchObject({ total: 4, succeeded: 2, failed: 2 });
      expect(tracked.credits).toEqual({ reserved: 4, released: 2 });
      expect(deepseek.requests.length).toBe(before);
      const failed = await results({ analysis_id: tracked.id, engine: "deepseek" });
      expect(failed.map((r) => [r.country, (r.error as { message: string }).message]).sort()).toEqual([
        ["DE", "deepseek cannot be asked as from DE: its API takes no location, so it was not asked"],
        ["FR", "deepseek cannot be asked as from FR: its API takes no location, so it was not asked"],
      ]);
      const placed = await results({ analysis_id: tracked.id, engine: "chatgpt" });
      expect(placed.map((r) => r.country).sort()).toEqual(["DE", "FR"]);
      await h.call("updateProject", { key: t.key, params: { id: projectId }, body: { countries: [] } });

      // The brand's one country is its market: asked from there where the engine can be placed,
      // and from nowhere in particular where it cannot, each answer saying which.
      await h.call("updateProject", { key: t.key, params: { id: projectId }, body: { country: "DE" } });
      const before2 = deepseek.requests.length;
      const market = await analyze({ engines: ["chatgpt", "deepseek"] });
      expect(market).toMatchObject({ country: "DE", countries: [], progress: { total: 2, succeeded: 2 } });
      expect(deepseek.requests.length).toBe(before2 + 1);
      expect(JSON.stringify(deepseek.requests.at(-1)?.body)).not.toContain("DE");
      const asked = await results({ analysis_id: market.id });
      expect(asked.map((r) => [r.engine, r.country]).sort()).toEqual([
        ["chatgpt", "DE"],
        ["deepseek", null],
      ]);
      await h.call("updateProject", { key: t.key, params: { id: projectId }, body: { country: null } });
    });

    it("runs a three-turn script on three engines with the history each vendor expects, turn by turn", async () => {
      // The vendors answer by turn: the brand is absent at first, enters when HubSpot is ruled
      // out, then survives on Claude and Gemini but drops out on ChatGPT.
      const reply =
        (lastTurn: string): ((request: RecordedRequest) => FakeAnswer | undefined) =>
        (request) => {
          const body = JSON.stringify(request.body);
          const cite = [{ url: "https://www.g2.com/categories/crm", title: "G2" }];
          if (body.includes("integrates with Slack")) return { text: lastTurn, citations: cite };
          if (body.includes("can't use HubSpot"))
            return { text: "Then Acme CRM is the usual alternative, and Pipedrive is solid too.", citations: cite };
          return { text: "HubSpot is the usual pick, and Pipedrive suits sales teams.", citations: cite };
        };
      openai.setResponder(reply("Pipedrive integrates with Slack out of the box."));
      anthropic.setResponder(reply("Acme CRM integrates with Slack, and so does Pipedrive."));
      gemini.setResponder(reply("Acme CRM has the best Slack integration of the two."));
      const persona = (
        await h.call("createPersona", {
          key: t.key,
          params: { id: projectId },
          body: { name: "Agency owner", role: "Founder of a 12-person agency", active: false },
        })
      ).json();
      const script = (
        await h.call("createConversationScript", {
          key: t.key,
          params: { id: projectId },
          body: {
            name: "Shortlist, then rule out the leader",
            turns: [
              "What is the best CRM for a small agency?",
              "We can't use {top_competitor_named}; what else?",
              "Which of those integrates with {tool}?",
            ],
            variables: { tool: "Slack" },
            persona_id: persona.id,
            country: "US",
          },
        })
      ).json();
      expect(script).toMatchObject({ object: "conversation_script", active: true, country: "US" });
      const marks = [openai, anthropic, gemini].map((fake) => fake.requests.length);
      const analysis = await analyze({ engines: ["chatgpt", "claude", "gemini"], scripts: [script.id] });
      openai.setResponder(null);
      anthropic.setResponder(null);
      gemini.setResponder(null);
      // One prompt on three engines, and three turns on three engines: one credit each.
      expect(analysis).toMatchObject({ conversations: 3, progress: { total: 12, succeeded: 12, failed: 0 } });
      expect(analysis.credits).toEqual({ reserved: 12, released: 0 });
      const [o, a, g] = [openai, anthropic, gemini].map((fake, i) => since(fake, marks[i] ?? 0));
      // The conversation's requests, not the single prompt's (asked in the same analysis).
      const turnsOf = (requests: RecordedRequest[] | undefined) =>
        (requests ?? []).filter((r) => lastUserText(r.body) !== BRAND.prompts[0]);
      const context = "Context about the person asking. Role: Founder of a 12-person agency.";

      // OpenAI: the vendor's own state; every turn carries the instructions again.
      const openaiTurns = turnsOf(o);
      expect(openaiTurns).toHaveLength(3);
      expect(json(openaiTurns[0])).toMatchObject({
        input: "What is the best CRM for a small agency?",
        instructions: context,
      });
      expect(json(openaiTurns[0]).previous_response_id).toBeUndefined();
      expect(json(openaiTurns[1])).toMatchObject({
        input: "We can't use HubSpot; what else?",
        instructions: context,
        tools: [{ type: "web_search", user_location: { type: "approximate", country: "US" } }],
      });
      expect(typeof json(openaiTurns[1]).previous_response_id).toBe("string");
      expect(json(openaiTurns[2])).toMatchObject({ input: "Which of those integrates with Slack?" });
      expect(json(openaiTurns[2]).previous_response_id).not.toBe(json(openaiTurns[1]).previous_response_id);

      // Anthropic: the whole history, alternating, ending with the question.
      const claudeTurns = turnsOf(a);
      expect(claudeTurns).toHaveLength(3);
      expect(json(claudeTurns[2]).system).toBe(context);
      expect(json(claudeTurns[2]).messages).toEqual([
        { role: "user", content: "What is the best CRM for a small agency?" },
        { role: "assistant", content: expect.stringContaining("HubSpot is the usual pick") },
        { role: "user", content: "We can't use HubSpot; what else?" },
        { role: "assistant", content: expect.stringContaining("Acme CRM is the usual alternative") },
        { role: "user", content: "Which of those integrates with Slack?" },
      ]);

      // Gemini: contents alternating user and model.
      const geminiTurns = turnsOf(g);
      expect(geminiTurns).toHaveLength(3);
      const contents = json(geminiTurns[2]).contents as { role: string; parts: { text: string }[] }[];
      expect(contents.map((c) => c.role)).toEqual(["user", "model", "user", "model", "user"]);
      expect(contents[4]?.parts[0]?.text).toBe("Which of those integrates with Slack?");

      // Every turn stored and measured; entry and drop-out recomputed here from the stored turns.
      const conversations = (
        await h.call("listConversations", {
          key: t.key,
          params: { id: projectId },
          query: { analysis_id: analysis.id },
        })
      ).json().data as {
        id: string;
        engine: string;
        status: string;
        entry_turn: number | null;
        drop_turn: number | null;
        survived: boolean | null;
      }[];
      expect(conversations).toHaveLength(3);
      const expected: Record<string, [number | null, boolean, number | null]> = {
        chatgpt: [2, false, 3],
        claude: [2, true, null],
        gemini: [2, true, null],
      };
      for (const conversation of conversations) {
        const turns = (await results({ conversation_id: conversation.id })).sort(
          (x, y) => Number(x.turn) - Number(y.turn),
        );
        expect(turns.map((r) => r.turn)).toEqual([1, 2, 3]);
        for (const turn of turns) {
          expect(turn).toMatchObject({
            persona_id: persona.id,
            persona_version: 1,
            country: "US",
            status: "succeeded",
          });
        }
        const named = turns.map((r) => (r.brand as { mentioned: boolean }).mentioned);
        const entry = named.indexOf(true) + 1 || null;
        const survived = named.at(-1) === true;
        const last = named.lastIndexOf(true) + 1;
        const drop = entry !== null && !survived ? last + 1 : null;
        expect([entry, survived, drop]).toEqual(expected[conversation.engine]);
        expect(conversation).toMatchObject({ status: "completed", entry_turn: entry, survived, drop_turn: drop });

        // Each turn's cost is its usage at the engine's list prices, and the turns add up.
        const price = ENGINE_DESCRIPTORS.find((d) => d.name === conversation.engine)?.price;
        if (price === undefined) throw new Error(`no price for ${conversation.engine}`);
        for (const turn of turns) {
          const usage = turn.usage as {
            input_tokens: number;
            output_tokens: number;
            search_calls: number;
            cost: number;
          };
          const micros = answerCostMicros(price, {
            inputTokens: usage.input_tokens,
            outputTokens: usage.output_tokens,
            searchCalls: usage.search_calls,
            costUsd: null,
          });
          expect(Math.round(usage.cost * 1_000_000)).toBe(micros);
        }
      }

      // The conversation view: every turn, with where the names are.
      const chatgpt = conversations.find((c) => c.engine === "chatgpt");
      const view = (
        await h.call("getConversation", {
          key: t.key,
          params: { id: projectId, conversation_id: chatgpt?.id ?? "" },
        })
      ).json();
      expect(view.turns.map((turn: { prompt: string }) => turn.prompt)).toEqual([
        "What is the best CRM for a small agency?",
        "We can't use HubSpot; what else?",
        "Which of those integrates with Slack?",
      ]);
      const second = view.turns[1] as { text: string; mentions: { name: string; start: number; end: number }[] };
      expect(second.mentions.map((m) => second.text.slice(m.start, m.end))).toEqual(["Acme CRM", "Pipedrive"]);

      // The script's figures per engine, over these three conversations.
      const stats = (
        await h.call("getConversationScriptStats", { key: t.key, params: { id: projectId, script_id: script.id } })
      ).json();
      const claude = stats.engines.find((e: { engine: string }) => e.engine === "claude");
      expect(claude).toMatchObject({
        conversations: 1,
        entered: { count: 1, n: 1 },
        survived: { count: 1, n: 1 },
        entry_turn_median: 2,
      });
      expect(claude.by_turn.map((turn: { mentioned: { count: number } }) => turn.mentioned.count)).toEqual([0, 1, 1]);

      // The analysis's summary counts its single answers only: the turns are the conversations'.
      expect(analysis.summary.overall.visibility.n).toBe(3);

      // The analysis's report carries the script's figures, in words in its HTML.
      const reports = (await h.call("listReports", { key: t.key, query: { project_id: projectId } })).json().data;
      const report = reports.find((r: { analysis_id: string | null }) => r.analysis_id === analysis.id);
      const full = (await h.call("getReport", { key: t.key, params: { id: report.id } })).json();
      const section = full.data.conversations.find((c: { script_id: string }) => c.script_id === script.id);
      expect(section.turns).toBe(3);
      expect(
        section.engines.map((e: { engine: string; survived: { count: number }; dropped: { count: number } }) => [
          e.engine,
          e.survived.count,
          e.dropped.count,
        ]),
      ).toEqual([
        ["chatgpt", 0, 1],
        ["claude", 1, 0],
        ["gemini", 1, 0],
      ]);
      const html = (await h.call("getReport", { key: t.key, params: { id: report.id }, query: { format: "html" } }))
        .body;
      expect(html).toContain("<h2>Conversations</h2>");
      expect(html).toContain("Shortlist, then rule out the leader (3 turns)");
      await h.call("updateConversationScript", {
        key: t.key,
        params: { id: projectId, script_id: script.id },
        body: { active: false },
      });
    });

    it("stops a conversation whose follow-up refers to what the answer did not name, charging nothing for it", async () => {
      deepseek.setAnswer({ text: "It depends on your budget.", citations: [] });
      const script = (
        await h.call("createConversationScript", {
          key: t.key,
          params: { id: projectId },
          body: {
            name: "Rule out the leader",
            turns: ["Which CRM should a small agency use?", "We can't use {top_competitor_named}; what else?", "And?"],
          },
        })
      ).json();
      const analysis = await analyze({ engines: ["deepseek"], scripts: [script.id], country: null });
      expect(analysis.progress).toMatchObject({ total: 4, succeeded: 2, failed: 2 });
      expect(analysis.credits).toEqual({ reserved: 4, released: 2 });
      const [conversation] = (
        await h.call("listConversations", { key: t.key, params: { id: projectId }, query: { script_id: script.id } })
      ).json().data;
      expect(conversation).toMatchObject({
        status: "stopped",
        turns_answered: 1,
        entry_turn: null,
        stop_reason: expect.stringContaining("the previous answer named no tracked competitor"),
      });
      const view = (
        await h.call("getConversation", { key: t.key, params: { id: projectId, conversation_id: conversation.id } })
      ).json();
      expect(view.turns.map((turn: { status: string }) => turn.status)).toEqual([
        "succeeded",
        "not_asked",
        "not_asked",
      ]);
      await h.call("deleteConversationScript", { key: t.key, params: { id: projectId, script_id: script.id } });

      // A surface that holds no conversation cannot run one.
      const refused = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, engines: ["chatgpt_web"], scripts: [script.id] },
      });
      expect(refused.statusCode).toBe(400);
    });

    it("rejects a template that refers to nothing, or to a previous answer in the opening question", async () => {
      const bad = await h.call("createConversationScript", {
        key: t.key,
        params: { id: projectId },
        body: { name: "Bad", turns: ["Best CRM with {top_competitor_named}?", "What about {budget}?"] },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details.map((d: { field: string }) => d.field)).toEqual(["turns[0]", "turns[1]"]);
      expect(await h.count("changes", t.workspace.id)).toBe(0);
    });

    it("gives figures by persona and by country that equal a recount of the stored answers", async () => {
      const sandboxProject = (
        await h.call("createProject", {
          key: t.key,
          body: {
            ...BRAND,
            name: "Acme Sandbox",
            primary_domain: "acme-sandbox.com",
            prompts: ["best CRM for a small agency", "cheapest CRM for startups", "CRM with a good Slack integration"],
            countries: ["US", "DE"],
            engines: ["sandbox"],
          },
        })
      ).json();
      for (const name of ["Cautious CFO", "Sales lead"]) {
        await h.call("createPersona", {
          key: t.key,
          params: { id: sandboxProject.id },
          body: { name, role: name === "Sales lead" ? "Head of sales" : "CFO", constraints: "We can't use HubSpot" },
        });
      }
      const response = await h.call("analyze", {
        key: t.key,
        body: { project_id: sandboxProject.id, samples: 3, wait: 60 },
      });
      const analysis = response.json();
      // 3 prompts × 1 engine × 3 samples × 2 personas × 2 countries.
      expect(analysis.progress).toMatchObject({ total: 36, succeeded: 36 });
      const stored: Record<string, unknown>[] = [];
      let cursor: string | undefined;
      do {
        const page = (
          await h.call("listResults", {
            key: t.key,
            query: { project_id: sandboxProject.id, limit: 100, ...(cursor === undefined ? {} : { cursor }) },
          })
        ).json();
        stored.push(...page.data);
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
      expect(stored).toHaveLength(36);
      for (const by of ["persona", "country"] as const) {
        const figures = (
          await h.call("getProjectBreakdown", { key: t.key, params: { id: sandboxProject.id }, query: { by } })
        ).json();
        const field = by === "persona" ? "persona_id" : "country";
        const keys = [...new Set(stored.map((r) => r[field] as string))].sort();
        expect(figures.groups.map((g: { key: string }) => g.key).sort()).toEqual(keys);
        for (const group of figures.groups) {
          const own = stored.filter((r) => r[field] === group.key && r.status === "succeeded");
          const named = own.filter((r) => (r.brand as { mentioned: boolean }).mentioned);
          const positions = named.map((r) => (r.brand as { position: number }).position);
          expect(group.answers).toBe(own.length);
          expect(group.visibility).toMatchObject({ count: named.length, n: own.length });
          expect(group.average_position).toBeCloseTo(positions.reduce((s, p) => s + p, 0) / positions.length, 2);
          expect(group.citation_rate.count).toBe(own.filter((r) => r.brand_cited).length);
        }
        expect(figures.groups.reduce((s: number, g: { answers: number }) => s + g.answers, 0)).toBe(36);
      }
      // Persona names, as people read them; country names too.
      const byPersona = (
        await h.call("getProjectBreakdown", { key: t.key, params: { id: sandboxProject.id }, query: { by: "persona" } })
      ).json();
      expect(byPersona.groups.map((g: { label: string }) => g.label).sort()).toEqual(["Cautious CFO", "Sales lead"]);
      const byCountry = (
        await h.call("getProjectBreakdown", { key: t.key, params: { id: sandboxProject.id }, query: { by: "country" } })
      ).json();
      expect(byCountry.groups.map((g: { label: string }) => g.label).sort()).toEqual(["Germany", "United States"]);
      // The analysis's report compares them too, with the same counts.
      const report = (await h.call("listReports", { key: t.key, query: { project_id: sandboxProject.id } })).json()
        .data[0];
      const audiences = (await h.call("getReport", { key: t.key, params: { id: report.id } })).json().data.audiences;
      expect(audiences.by_persona.map((g: { answers: number }) => g.answers)).toEqual([18, 18]);
      expect(audiences.by_country.map((g: { label: string }) => g.label).sort()).toEqual(["Germany", "United States"]);
    });

    it("runs the brand's active scripts in its monitoring schedule's runs", async () => {
      const project = (
        await h.call("createProject", {
          key: t.key,
          body: { ...BRAND, name: "Acme Scheduled", primary_domain: "acme-scheduled.com", engines: ["sandbox"] },
        })
      ).json();
      await h.call("createConversationScript", {
        key: t.key,
        params: { id: project.id },
        body: {
          name: "Follow-up",
          turns: ["Which CRM for a small agency?", "We can't use {top_competitor_named}; what else?"],
        },
      });
      const schedule = (
        await h.call("createMonitoring", { key: t.key, body: { project_id: project.id, schedule: { every: "day" } } })
      ).json();
      const run = (await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } })).json();
      const deadline = Date.now() + 20_000;
      let analysis: { status: string; conversations: number; progress: { total: number } } | undefined;
      while (Date.now() < deadline) {
        const runs = (await h.call("listMonitoringRuns", { key: t.key, params: { id: schedule.id } })).json().data;
        const analysisId = runs.find((r: { id: string }) => r.id === run.id)?.analysis_id;
        if (analysisId) analysis = (await h.call("getAnalysis", { key: t.key, params: { id: analysisId } })).json();
        if (analysis?.status === "completed") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // One prompt and a two-turn conversation on the sandbox.
      expect(analysis).toMatchObject({ status: "completed", conversations: 1, progress: { total: 3 } });
      const listed = (await h.call("listConversations", { key: t.key, params: { id: project.id } })).json().data;
      expect(listed).toHaveLength(1);
      expect(listed[0].status).not.toBe("running");
    });
  },
  { config: { engines, webhookAllowPrivate: true } },
);

describe("the conversation's measure", () => {
  it("is recomputed from turns in any order", async () => {
    const { conversationOutcome } = await import("../../src/services/conversations/outcome.ts");
    expect(
      conversationOutcome([
        { turn: 2, mentioned: true },
        { turn: 1, mentioned: false },
        { turn: 3, mentioned: false },
      ]),
    ).toEqual({
      entryTurn: 2,
      survived: false,
      dropTurn: 3,
    });
    expect(
      conversationOutcome([
        { turn: 1, mentioned: true },
        { turn: 2, mentioned: false },
        { turn: 3, mentioned: true },
      ]),
    ).toEqual({
      entryTurn: 1,
      survived: true,
      dropTurn: null,
    });
    expect(conversationOutcome([{ turn: 1, mentioned: false }])).toEqual({
      entryTurn: null,
      survived: false,
      dropTurn: null,
    });
  });
});
