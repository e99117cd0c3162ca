import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.ts";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { JUDGE_PROMPT_VERSION, parseVerdict } from "../../src/services/judge/prompt.ts";
import { ambiguousNames, compileProject, measureAnswer } from "../../src/services/measurement/measure.ts";
import { measuredProject } from "../../src/services/projects/measured.ts";
import { startFakeChatCompletions, startFakeOpenAIResponses } from "../helpers/fake-vendors/index.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";

// The engines answer through fakes of their vendors' APIs: Perplexity answers the prompts,
// ChatGPT (OpenAI's Responses API) is the judge.
const answers = await startFakeChatCompletions({ flavour: "perplexity" });
const judge = await startFakeOpenAIResponses();
afterAll(async () => {
  await answers.stop();
  await judge.stop();
});

function engines() {
  const config = defaultEngineConfig();
  config.vendors.perplexity = { ...config.vendors.perplexity, apiKey: "pplx-test", baseUrl: answers.url };
  config.vendors.chatgpt = { ...config.vendors.chatgpt, apiKey: "sk-test", baseUrl: judge.url };
  return { ...config, maxRetries: 0, timeoutMs: 5_000 };
}

const PROMPT = "how do I organise my thoughts?";
const brand = {
  name: "Notion",
  primary_domain: "notion.so",
  competitors: [{ name: "Coda", domains: ["coda.io"] }],
  prompts: [PROMPT],
  engines: ["perplexity"],
};

/** A sentence that opens with "Notion": the capital says nothing, so the rules are unsure. */
const AMBIGUOUS = "Notion helps many people keep their notes in one place.";

const judgeCalls = () => judge.requests.filter((r) => r.path === "/v1/responses");

describeEachDialect(
  "the judge engine",
  (h) => {
    let t: Tenant;
    let projectId: string;

    beforeAll(async () => {
      await h.startWorker();
      t = await h.tenant("agency");
      const res = await h.call("createProject", { key: t.key, body: brand });
      expect(res.statusCode, res.body).toBe(201);
      projectId = res.json().id;
      judge.requests.length = 0;
    });

    async function analyse(h: Harness) {
      const res = await h.call("analyze", { key: t.key, body: { project_id: projectId, wait: 30 } });
      expect(res.statusCode, res.body).toBe(200);
      const results = (await h.call("listResults", { key: t.key, query: { analysis_id: res.json().id } })).json();
      expect(results.data).toHaveLength(1);
      return results.data[0];
    }

    const usage = async () => (await h.call("getUsage", { key: t.key })).json().credits;

    it("settles a mention the rules are unsure of, with its tone, for one credit", async () => {
      // What the rules alone make of the answer: unsure, so the judge is asked.
      const project = (await h.call("getProject", { key: t.key, params: { id: projectId } })).json();
      const rules = measureAnswer(compileProject(measuredProject(project)), {
        text: AMBIGUOUS,
        citations: [],
        prompt: PROMPT,
      });
      expect(ambiguousNames(rules)).toEqual(["Notion"]);

      answers.setAnswer({ text: AMBIGUOUS, citations: [] });
      judge.setAnswer({
        text: '```json\n{"meant": {"Notion": true, "Evernote": false}, "tone": 0.6}\n```',
        citations: [],
      });
      const result = await analyse(h);
      expect(result.brand).toMatchObject({ mentioned: true, position: 1, sentiment: 0.6 });

      expect(judgeCalls()).toHaveLength(1);
      const asked = JSON.stringify(judgeCalls()[0]?.body);
      expect(asked).toContain("Notion");
      expect(asked).toContain(PROMPT.replace("?", ""));
      const credits = await usage();
      expect(credits).toMatchObject({ used: 2, by_engine: { perplexity: 1 }, judge: 1 });
    });

    it("asks again neither for a re-measure nor for an identical answer: the verdict is cached", async () => {
      const before = await usage();
      const queued = (await h.call("remeasureProject", { key: t.key, params: { id: projectId } })).json();
      const deadline = Date.now() + 15_000;
      for (;;) {
        const r = (
          await h.call("getRemeasure", { key: t.key, params: { id: projectId, remeasure_id: queued.id } })
        ).json();
        if (r.status === "completed") break;
        if (Date.now() > deadline) expect.fail(`remeasure is still ${r.status}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const again = await analyse(h);
      expect(again.brand).toMatchObject({ mentioned: true, sentiment: 0.6 });
      expect(judgeCalls()).toHaveLength(1);
      const results = (await h.call("listResults", { key: t.key, query: { project_id: projectId } })).json();
      for (const result of results.data) expect(result.brand).toMatchObject({ mentioned: true, sentiment: 0.6 });
      const after = await usage();
      expect(after.judge).toBe(before.judge);
      expect(after.used).toBe(before.used + 1); // the second analysis's answer only
    });

    it("ignores a reply it cannot read, or a failing judge: the rules stand and nothing is charged", async () => {
      const before = await usage();
      const stored = await h.deps.db.selectFrom("judge_verdicts").select("key").execute();
      answers.setAnswer({ text: "Notion, for many people, is where the notes end up.", citations: [] });
      judge.setAnswer({ text: "It is the brand, I think.", citations: [] });
      const unreadable = await analyse(h);
      expect(unreadable.brand.mentioned).toBe(false);
      expect(judgeCalls()).toHaveLength(2);

      judge.script("server_error");
      const failing = await analyse(h);
      expect(failing.brand.mentioned).toBe(false);
      expect(failing.status).toBe("succeeded");
      judge.script("ok");

      const after = await usage();
      expect(after.judge).toBe(before.judge);
      expect(after.used).toBe(before.used + 2);
      expect(await h.deps.db.selectFrom("judge_verdicts").select("key").execute()).toHaveLength(stored.length);
    });
  },
  { config: { engines: engines(), judge: { engine: "chatgpt" } } },
);

describe("the judge's reply", () => {
  const question = { prompt: "p", text: "t", names: ["Notion", "Target"], toneOf: "Notion" };

  it("is read defensively: fences and prose around the JSON, unknown names, bad types and out-of-range tone", () => {
    expect(
      parseVerdict('Sure! {"meant": {"Notion": true, "Target": "yes", "Other": true}, "tone": 2}', question),
    ).toEqual({ meant: new Map([["Notion", true]]), tone: null });
    expect(parseVerdict('{"meant": {}, "tone": -0.25}', question)).toEqual({ meant: new Map(), tone: -0.25 });
    for (const reply of ["", "no", "{", '{"meant": [true]}', "[1, 2]", '{"meant": {"Notion": 1}}', "{}"]) {
      expect(parseVerdict(reply, question), reply).toBeNull();
    }
    expect(parseVerdict('{"meant": {}, "tone": 0.5}', { ...question, toneOf: null })).toBeNull();
    expect(JUDGE_PROMPT_VERSION).toBe("1");
  });
});

describe("SIGHTLINE_JUDGE_ENGINE", () => {
  it("must name an engine this server knows and can ask", () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env, "/tmp");
        return [];
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        return error.problems;
      }
    };
    expect(problems({ SIGHTLINE_JUDGE_ENGINE: "bard" })[0]).toMatch(
      /^SIGHTLINE_JUDGE_ENGINE names no engine this server knows \("bard"\); engines are sandbox, chatgpt/,
    );
    expect(problems({ SIGHTLINE_JUDGE_ENGINE: "chatgpt" })).toEqual([
      "SIGHTLINE_JUDGE_ENGINE names chatgpt, which has no credentials configured (set OPENAI_API_KEY)",
    ]);
    expect(loadConfig({ SIGHTLINE_JUDGE_ENGINE: "chatgpt", OPENAI_API_KEY: "sk-x" }, "/tmp").judge).toEqual({
      engine: "chatgpt",
    });
    expect(loadConfig({}, "/tmp").judge).toBeNull();
    const custom = JSON.stringify([{ name: "local_llm", base_url: "http://localhost:11434/v1", model: "llama3" }]);
    expect(loadConfig({ SIGHTLINE_CUSTOM_ENGINES: custom, SIGHTLINE_JUDGE_ENGINE: "local_llm" }, "/tmp").judge).toEqual(
      {
        engine: "local_llm",
      },
    );
    const named = JSON.stringify([{ name: "judge", base_url: "http://localhost:11434/v1", model: "llama3" }]);
    expect(problems({ SIGHTLINE_CUSTOM_ENGINES: named })[0]).toContain('the name "judge" is already taken');
  });
});
