import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnginePrices } from "../../src/config/engines.ts";
import { ConfigValueError } from "../../src/config/parse.ts";
import { ENGINE_DESCRIPTORS, type VendorEngine } from "../../src/services/engines/catalog.ts";
import { answerCostMicros, type EnginePrice } from "../../src/services/engines/prices.ts";
import { EngineRegistry } from "../../src/services/engines/registry.ts";
import { defaultEngineConfig, type EngineConfig } from "../../src/services/engines/settings.ts";
import type { EngineQuery } from "../../src/services/engines/types.ts";
import {
  type FakeVendor,
  startFakeAnthropic,
  startFakeChatCompletions,
  startFakeDataForSeo,
  startFakeGemini,
  startFakeOpenAIResponses,
  startFakeSerpApi,
} from "../helpers/fake-vendors/index.ts";
import type { JsonValue, RecordedRequest } from "../helpers/fake-vendors/server.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";

/**
 * The cost of every answer (issue 16, ADR 0029): each vendor's usage fields read from its real wire
 * format (the fake's body is fetched again and read here, independently of the adapter), priced
 * from the price table or taken from the vendor's own figure; then, through the API on both
 * dialects, per answer, per analysis, per monitoring run, and per engine and month in usage.
 */

const QUERY: EngineQuery = {
  prompt: "best CRM for a small agency",
  // Asked from nowhere in particular: grok and deepseek cannot be placed (engines.test.ts checks placing).
  country: null,
  language: "en",
  sample: 1,
  seed: "ana_costs",
};

const ANSWER = {
  text: "For a small agency, HubSpot is the usual pick, while Acme CRM is praised for its price. Pipedrive suits sales teams.",
  citations: [
    { url: "https://www.g2.com/categories/crm", title: "Best CRM Software" },
    { url: "https://acmecrm.com/pricing", title: "Acme CRM pricing" },
  ],
  searches: ["best crm small agency", "HubSpot vs Acme CRM pricing", "crm pricing 2026"],
};

interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  searchCalls: number;
  costUsd: number | null;
}

type Body = Record<string, JsonValue> & Record<string, never>;

interface Case {
  engine: VendorEngine;
  start: () => Promise<FakeVendor<string>>;
  apiKey: string;
  /** The usage the vendor's body states, read from the wire body by the test itself. */
  usageIn(body: Body, requests: number): Usage;
}

// biome-ignore lint/suspicious/noExplicitAny: wire bodies are read field by field, as JSON.
const get = (body: any, ...path: (string | number)[]): any => path.reduce((value, key) => value?.[key], body);

const CASES: Case[] = [
  {
    engine: "chatgpt",
    start: () => startFakeOpenAIResponses(),
    apiKey: "sk-test",
    usageIn: (body) => ({
      inputTokens: get(body, "usage", "input_tokens"),
      outputTokens: get(body, "usage", "output_tokens"),
      searchCalls: get(body, "output").filter((item: { type: string }) => item.type === "web_search_call").length,
      costUsd: null,
    }),
  },
  {
    engine: "grok",
    start: () => startFakeOpenAIResponses({ utmSource: false }),
    apiKey: "xai-test",
    usageIn: (body) => ({
      inputTokens: get(body, "usage", "input_tokens"),
      outputTokens: get(body, "usage", "output_tokens"),
      searchCalls: get(body, "output").filter((item: { type: string }) => item.type === "web_search_call").length,
      costUsd: null,
    }),
  },
  {
    engine: "claude",
    start: () => startFakeAnthropic(),
    apiKey: "sk-ant-test",
    usageIn: (body) => ({
      inputTokens:
        get(body, "usage", "input_tokens") +
        (get(body, "usage", "cache_creation_input_tokens") ?? 0) +
        (get(body, "usage", "cache_read_input_tokens") ?? 0),
      outputTokens: get(body, "usage", "output_tokens"),
      searchCalls: get(body, "usage", "server_tool_use", "web_search_requests"),
      costUsd: null,
    }),
  },
  {
    engine: "gemini",
    start: () => startFakeGemini(),
    apiKey: "gemini-test",
    usageIn: (body) => ({
      inputTokens:
        get(body, "usageMetadata", "promptTokenCount") + get(body, "usageMetadata", "toolUsePromptTokenCount"),
      outputTokens:
        get(body, "usageMetadata", "candidatesTokenCount") + (get(body, "usageMetadata", "thoughtsTokenCount") ?? 0),
      searchCalls: get(body, "candidates", 0, "groundingMetadata", "webSearchQueries").length,
      costUsd: null,
    }),
  },
  {
    engine: "perplexity",
    start: () => startFakeChatCompletions({ flavour: "perplexity" }),
    apiKey: "pplx-test",
    usageIn: (body) => ({
      inputTokens: get(body, "usage", "prompt_tokens"),
      outputTokens: get(body, "usage", "completion_tokens"),
      searchCalls: 0,
      costUsd: get(body, "usage", "cost", "total_cost"),
    }),
  },
  {
    engine: "deepseek",
    start: () => startFakeChatCompletions({ flavour: "deepseek" }),
    apiKey: "ds-test",
    usageIn: (body) => ({
      inputTokens: get(body, "usage", "prompt_tokens"),
      outputTokens: get(body, "usage", "completion_tokens"),
      searchCalls: 0,
      costUsd: null,
    }),
  },
  {
    engine: "google_ai_overview",
    start: () => startFakeSerpApi(),
    apiKey: "serp-test",
    // SerpApi bills each search: the answer is one, or two when the overview was fetched apart.
    usageIn: (_body, requests) => ({ inputTokens: null, outputTokens: null, searchCalls: requests, costUsd: null }),
  },
  {
    engine: "chatgpt_web",
    start: () => startFakeDataForSeo(),
    apiKey: "login:password",
    usageIn: (body) => ({
      inputTokens: null,
      outputTokens: null,
      searchCalls: 1,
      costUsd: get(body, "tasks", 0, "cost"),
    }),
  },
];

function registryFor(engine: VendorEngine, url: string, apiKey: string, extra: Partial<EngineConfig> = {}) {
  const config = defaultEngineConfig();
  config.vendors[engine] = { ...config.vendors[engine], apiKey, baseUrl: url };
  return new EngineRegistry({ ...config, timeoutMs: 5_000, maxRetries: 0, ...extra }, pino({ level: "silent" }));
}

/** The fake's answer to the same request, fetched again: the wire body the adapter read. */
async function replay(fake: FakeVendor<string>, request: RecordedRequest): Promise<Body> {
  const query = new URLSearchParams(request.query).toString();
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const name of ["authorization", "x-api-key", "x-goog-api-key", "anthropic-version"]) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const response = await fetch(`${fake.origin}${request.path}${query === "" ? "" : `?${query}`}`, {
    method: request.method,
    headers,
    ...(request.method === "GET" ? {} : { body: request.rawBody }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Body;
}

function listPrice(engine: string): EnginePrice {
  const descriptor = ENGINE_DESCRIPTORS.find((d) => d.name === engine);
  if (descriptor === undefined) throw new Error(`no descriptor ${engine}`);
  return descriptor.price;
}

function expectedMicros(price: EnginePrice, usage: Usage): number {
  const usd =
    usage.costUsd ??
    ((usage.inputTokens ?? 0) * price.inputPerMillion) / 1e6 +
      ((usage.outputTokens ?? 0) * price.outputPerMillion) / 1e6 +
      usage.searchCalls * price.perSearch +
      price.perRequest;
  return Math.round(usd * 1e6);
}

describe("the usage of each vendor's answer, from its wire format", () => {
  for (const c of CASES) {
    describe(c.engine, () => {
      let fake: FakeVendor<string>;
      beforeAll(async () => {
        fake = await c.start();
        fake.setAnswer(ANSWER);
      });
      afterAll(async () => fake.stop());

      it("is what the vendor's body states, and its cost the vendor's own figure or the list price", async () => {
        fake.script("ok");
        const before = fake.requests.length;
        const asked = await registryFor(c.engine, fake.url, c.apiKey).ask(c.engine, QUERY);
        if (!asked.outcome.ok) throw new Error(asked.outcome.error.message);
        const served = fake.requests.slice(before);
        const last = served[served.length - 1] as RecordedRequest;
        const stated = c.usageIn(await replay(fake, last), served.length);
        expect(asked.outcome.answer.usage).toEqual(stated);
        // The fakes report real figures: a test of zeros would prove nothing.
        if (stated.inputTokens !== null) expect(stated.inputTokens).toBeGreaterThan(0);
        if (stated.outputTokens !== null) expect(stated.outputTokens).toBeGreaterThan(0);
        expect(asked.costMicros).toBe(expectedMicros(listPrice(c.engine), stated));
        expect(asked.costMicros).toBeGreaterThan(0);
      });

      it("is priced at the operator's prices when set, field by field", async () => {
        fake.script("ok");
        const own = { inputPerMillion: 10, perRequest: 0.5 };
        const registry = registryFor(c.engine, fake.url, c.apiKey, { pricesByEngine: { [c.engine]: own } });
        expect(registry.priceOf(c.engine)).toEqual({ ...listPrice(c.engine), ...own });
        const asked = await registry.ask(c.engine, QUERY);
        if (!asked.outcome.ok) throw new Error(asked.outcome.error.message);
        expect(asked.costMicros).toBe(answerCostMicros({ ...listPrice(c.engine), ...own }, asked.outcome.answer.usage));
      });

      it("is not counted for a failed request: vendors bill no failure", async () => {
        fake.script("server_error");
        const asked = await registryFor(c.engine, fake.url, c.apiKey).ask(c.engine, QUERY);
        expect(asked.outcome.ok).toBe(false);
        expect(asked.costMicros).toBeNull();
      });
    });
  }

  it("counts both SerpApi searches when the AI Overview comes behind a page token", async () => {
    const fake = await startFakeSerpApi();
    try {
      fake.setAnswer(ANSWER);
      fake.script("paged", "ok");
      const asked = await registryFor("google_ai_overview", fake.url, "serp-test").ask("google_ai_overview", QUERY);
      if (!asked.outcome.ok) throw new Error(asked.outcome.error.message);
      expect(fake.requests.filter((r) => r.path === "/search.json")).toHaveLength(2);
      expect(asked.outcome.answer.usage.searchCalls).toBe(2);
      expect(asked.costMicros).toBe(2 * 15_000);
    } finally {
      await fake.stop();
    }
  });
});

describe("SIGHTLINE_ENGINE_PRICES", () => {
  it("reads each engine's prices, any of the four fields", () => {
    expect(
      parseEnginePrices(
        '{"chatgpt": {"input_per_million": 0.2, "per_search": 0.02}, "sandbox": {"per_request": 1}}',
        [],
      ),
    ).toEqual({ chatgpt: { inputPerMillion: 0.2, perSearch: 0.02 }, sandbox: { perRequest: 1 } });
    expect(
      parseEnginePrices('{"local": {"output_per_million": 3}}', [
        { name: "local", baseUrl: "http://127.0.0.1:11434/v1", model: "llama", apiKey: null },
      ]),
    ).toEqual({ local: { outputPerMillion: 3 } });
  });

  it.each([
    ["not JSON", "{chatgpt"],
    ["a list", "[]"],
    ["an unknown engine", '{"chatgtp": {"per_search": 1}}'],
    ["an unknown field", '{"chatgpt": {"per_token": 1}}'],
    ["a negative price", '{"chatgpt": {"per_search": -1}}'],
    ["a price as text", '{"chatgpt": {"per_search": "0.01"}}'],
    ["prices that are not an object", '{"chatgpt": 0.01}'],
  ])("refuses %s", (_what, raw) => {
    expect(() => parseEnginePrices(raw, [])).toThrow(ConfigValueError);
  });
});

/** The sandbox priced, so that its estimated usage has a cost to add up. */
const SANDBOX_PRICE = { inputPerMillion: 2, outputPerMillion: 8, perSearch: 0.001, perRequest: 0.0005 };

const BRAND = {
  name: "Acme CRM",
  aliases: ["Acme"],
  primary_domain: "acmecrm.com",
  competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }],
  prompts: ["best CRM for a small agency", "cheapest CRM for startups", "CRM with a good Slack integration"],
};

interface ResultBody {
  id: string;
  engine: string;
  prompt: string;
  text: string | null;
  searches: string[];
  status: string;
  usage: { input_tokens: number | null; output_tokens: number | null; search_calls: number; cost: number } | null;
}

interface CostBody {
  currency: string;
  total: number;
  answers: number;
  input_tokens: number;
  output_tokens: number;
  search_calls: number;
  by_engine: Record<
    string,
    { cost: number; answers: number; input_tokens: number; output_tokens: number; search_calls: number }
  >;
}

const micros = (usd: number) => Math.round(usd * 1e6);

describeEachDialect(
  "the cost of answers, analyses, monitoring runs and months",
  (h) => {
    let t: Tenant;
    let projectId: string;

    beforeAll(async () => {
      await h.startWorker();
      t = await h.tenant("agency");
      projectId = (await h.call("createProject", { key: t.key, body: BRAND })).json().id;
    });

    async function results(analysisId: string): Promise<ResultBody[]> {
      const res = await h.call("listResults", { key: t.key, query: { analysis_id: analysisId, limit: 100 } });
      return res.json().data;
    }

    /** The cost the test computes itself from each answer's text, prompt and searches. */
    function recomputed(rows: ResultBody[]) {
      const byEngine = new Map<
        string,
        { micros: number; answers: number; input: number; output: number; searches: number }
      >();
      for (const row of rows) {
        if (row.status !== "succeeded" || row.text === null) continue;
        const input = Math.ceil(row.prompt.length / 4);
        const output = Math.ceil(row.text.length / 4);
        const cost = expectedMicros(SANDBOX_PRICE, {
          inputTokens: input,
          outputTokens: output,
          searchCalls: row.searches.length,
          costUsd: null,
        });
        const entry = byEngine.get(row.engine) ?? { micros: 0, answers: 0, input: 0, output: 0, searches: 0 };
        entry.micros += cost;
        entry.answers++;
        entry.input += input;
        entry.output += output;
        entry.searches += row.searches.length;
        byEngine.set(row.engine, entry);
      }
      return byEngine;
    }

    let first: { id: string; cost: CostBody };
    let firstRows: ResultBody[];

    it("keeps each answer's usage and cost, and the analysis's total per engine", async () => {
      const res = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, engines: ["sandbox", "sandbox_web"], samples: 3, wait: 60 },
      });
      expect(res.statusCode, res.body).toBe(200);
      first = res.json();
      firstRows = await results(first.id);
      expect(firstRows).toHaveLength(18);
      const expected = recomputed(firstRows);
      for (const row of firstRows) {
        expect(row.usage).not.toBeNull();
        expect(row.usage?.input_tokens).toBe(Math.ceil(row.prompt.length / 4));
        expect(row.usage?.output_tokens).toBe(Math.ceil((row.text ?? "").length / 4));
        expect(row.usage?.search_calls).toBe(row.searches.length);
        expect(row.usage?.search_calls).toBeGreaterThan(0);
      }
      const total = [...expected.values()].reduce((sum, e) => sum + e.micros, 0);
      expect(micros(first.cost.total)).toBe(total);
      expect(first.cost.currency).toBe("USD");
      expect(first.cost.answers).toBe(18);
      for (const [engine, e] of expected) {
        expect(first.cost.by_engine[engine]).toEqual({
          cost: e.micros / 1e6,
          answers: e.answers,
          input_tokens: e.input,
          output_tokens: e.output,
          search_calls: e.searches,
        });
      }
      // The results' own costs add up to the same, to the millionth.
      expect(firstRows.reduce((sum, row) => sum + micros(row.usage?.cost ?? 0), 0)).toBe(total);
      // GET shows what the wait answered.
      const again = (await h.call("getAnalysis", { key: t.key, params: { id: first.id } })).json();
      expect(again.cost).toEqual(first.cost);
    });

    it("adds each finished analysis to the month's cost per engine in usage, once", async () => {
      const usage = (await h.call("getUsage", { key: t.key })).json();
      expect(usage.cost.period).toEqual(first.cost);
      expect(usage.cost.months).toHaveLength(12);
      expect(usage.cost.months[0]).toEqual({ start: usage.period.start, end: usage.period.end, cost: first.cost });
      // Months follow each other, newest first, and the earlier ones cost nothing yet.
      for (let i = 1; i < 12; i++) {
        expect(usage.cost.months[i].end).toBe(usage.cost.months[i - 1].start);
        expect(usage.cost.months[i].cost).toMatchObject({ total: 0, answers: 0, by_engine: {} });
      }

      const second = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, engines: ["sandbox"], samples: 2, wait: 60 },
      });
      expect(second.statusCode, second.body).toBe(200);
      const secondCost: CostBody = second.json().cost;
      const after: CostBody = (await h.call("getUsage", { key: t.key })).json().cost.period;
      expect(micros(after.total)).toBe(micros(first.cost.total) + micros(secondCost.total));
      expect(after.answers).toBe(18 + 6);
      expect(micros(after.by_engine.sandbox?.cost ?? 0)).toBe(
        micros(first.cost.by_engine.sandbox?.cost ?? 0) + micros(secondCost.by_engine.sandbox?.cost ?? 0),
      );
      expect(after.by_engine.sandbox_web).toEqual(first.cost.by_engine.sandbox_web);
      // Another workspace sees none of it.
      const other = await h.tenant("agency");
      expect((await h.call("getUsage", { key: other.key })).json().cost.period).toMatchObject({ total: 0, answers: 0 });
    });

    it("keeps a monitoring run's cost: its analysis's", async () => {
      const schedule = (
        await h.call("createMonitoring", {
          key: t.key,
          body: { project_id: projectId, engines: ["sandbox"], samples: 1, schedule: { every: "day" } },
        })
      ).json();
      const started = await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } });
      expect(started.statusCode, started.body).toBe(202);
      let run: { status: string; analysis_id: string; cost: CostBody | null } | undefined;
      for (let i = 0; i < 600; i++) {
        run = (await h.call("listMonitoringRuns", { key: t.key, params: { id: schedule.id } })).json().data[0];
        if (run?.status === "completed" || run?.status === "failed") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(run?.status).toBe("completed");
      const analysis = (await h.call("getAnalysis", { key: t.key, params: { id: run?.analysis_id ?? "" } })).json();
      expect(run?.cost).toEqual(analysis.cost);
      expect(micros(run?.cost?.total ?? 0)).toBe(
        [...recomputed(await results(analysis.id)).values()].reduce((sum, e) => sum + e.micros, 0),
      );
      expect(run?.cost?.answers).toBe(3);
    });
  },
  {
    config: {
      engines: { ...defaultEngineConfig(), pricesByEngine: { sandbox: SANDBOX_PRICE, sandbox_web: SANDBOX_PRICE } },
    },
  },
);
