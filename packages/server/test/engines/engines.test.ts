import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { VENDOR_DESCRIPTORS, type VendorEngine } from "../../src/services/engines/catalog.ts";
import { EngineRegistry } from "../../src/services/engines/registry.ts";
import { cleanSearches } from "../../src/services/engines/searches.ts";
import { defaultEngineConfig, type EngineConfig } from "../../src/services/engines/settings.ts";
import type { EngineQuery } from "../../src/services/engines/types.ts";
import { usageOf } from "../../src/services/engines/usage.ts";
import {
  type FakeVendor,
  startFakeAnthropic,
  startFakeChatCompletions,
  startFakeGemini,
  startFakeOpenAIResponses,
  startFakeSerpApi,
} from "../helpers/fake-vendors/index.ts";

const ANSWER = {
  text: "For a small agency, HubSpot is the usual pick, while Acme CRM is praised for its price.",
  citations: [
    { url: "https://www.g2.com/categories/crm", title: "Best CRM Software" },
    { url: "https://acmecrm.com/pricing", title: "Acme CRM pricing" },
  ],
  // Given to the vendors that report their searches; the second repeats the first but for case and spaces.
  searches: ["best crm small agency", "  Best CRM   small agency ", "HubSpot vs Acme CRM pricing"],
};

/** What the adapters that read the vendor's searches keep of them: trimmed, without duplicates, in order. */
const SEARCHES = ["best crm small agency", "HubSpot vs Acme CRM pricing"];

const QUERY: EngineQuery = {
  prompt: "best CRM for a small agency",
  country: "US",
  language: "en",
  sample: 1,
  seed: "ana_test",
  simulation: {
    brand: { name: "Acme CRM", aliases: ["Acme"], domains: ["acmecrm.com"] },
    competitors: [{ name: "HubSpot", aliases: [], domains: ["hubspot.com"] }],
  },
};

/** The query a case is asked: without a country on an engine that cannot be placed. */
function queryFor(c: { placed?: boolean }): EngineQuery {
  return c.placed === false ? { ...QUERY, country: null } : QUERY;
}

interface Case {
  engine: VendorEngine;
  /** False for the engines whose API takes no location: they are asked without a country (a country is refused). */
  placed?: boolean;
  start: () => Promise<FakeVendor<string>>;
  /** Where the request went, and what the adapter must have asked for. */
  path: RegExp;
  checkRequest(body: Record<string, unknown> | null, query: Record<string, string>): void;
  /** Domains the adapter must report for the answer's citations. */
  citedDomains: string[];
  /** The searches the adapter must report: the vendor's own field, or none when the vendor has none. */
  searches: string[];
}

const CASES: Case[] = [
  {
    engine: "chatgpt",
    start: () => startFakeOpenAIResponses(),
    path: /^\/v1\/responses$/,
    checkRequest: (body) => {
      expect(body).toMatchObject({
        input: QUERY.prompt,
        tools: [{ type: "web_search", user_location: { country: "US" } }],
      });
    },
    citedDomains: ["g2.com", "acmecrm.com"],
    searches: SEARCHES,
  },
  {
    engine: "claude",
    start: () => startFakeAnthropic(),
    path: /^\/v1\/messages$/,
    checkRequest: (body) => {
      expect(body).toMatchObject({
        messages: [{ role: "user", content: QUERY.prompt }],
        tools: [{ type: "web_search_20250305" }],
      });
    },
    citedDomains: ["g2.com", "acmecrm.com"],
    searches: SEARCHES,
  },
  {
    engine: "gemini",
    start: () => startFakeGemini(),
    path: /:generateContent$/,
    checkRequest: (body) => {
      expect(JSON.stringify(body)).toContain(QUERY.prompt);
      expect(JSON.stringify(body)).toContain("googleSearch");
    },
    citedDomains: ["g2.com", "acmecrm.com"],
    searches: SEARCHES,
  },
  {
    engine: "perplexity",
    start: () => startFakeChatCompletions({ flavour: "perplexity" }),
    path: /\/chat\/completions$/,
    checkRequest: (body) => expect(body).toMatchObject({ messages: [{ role: "user", content: QUERY.prompt }] }),
    citedDomains: ["g2.com", "acmecrm.com"],
    searches: [],
  },
  {
    engine: "grok",
    placed: false,
    // xAI's API speaks OpenAI's Responses protocol; its web search tool takes no user_location.
    start: () => startFakeOpenAIResponses({ utmSource: false }),
    path: /^\/v1\/responses$/,
    checkRequest: (body) => {
      expect(body).toMatchObject({ input: QUERY.prompt, tools: [{ type: "web_search" }] });
      expect(JSON.stringify(body)).not.toContain("user_location");
    },
    citedDomains: ["g2.com", "acmecrm.com"],
    searches: SEARCHES,
  },
  {
    engine: "deepseek",
    placed: false,
    start: () => startFakeChatCompletions({ flavour: "deepseek" }),
    path: /\/chat\/completions$/,
    checkRequest: (body) => expect(body).toMatchObject({ messages: [{ role: "user", content: QUERY.prompt }] }),
    citedDomains: [],
    searches: [],
  },
  {
    engine: "google_ai_overview",
    start: () => startFakeSerpApi(),
    path: /^\/search\.json$/,
    checkRequest: (_body, query) =>
      expect(query).toMatchObject({ engine: "google", q: QUERY.prompt, gl: "us", hl: "en", api_key: "test-key" }),
    citedDomains: ["g2.com", "acmecrm.com"],
    searches: [],
  },
];

function registryFor(engine: VendorEngine, url: string, overrides: Partial<EngineConfig> = {}): EngineRegistry {
  const config = defaultEngineConfig();
  config.vendors[engine] = { ...config.vendors[engine], apiKey: "test-key", baseUrl: url };
  return new EngineRegistry({ ...config, timeoutMs: 1_500, maxRetries: 1, ...overrides }, pino({ level: "silent" }));
}

function domainOf(url: string, title: string | null): string {
  const host = new URL(url).hostname.replace(/^www\./, "");
  return host.endsWith("vertexaisearch.cloud.google.com") ? (title ?? host) : host;
}

describe("engine adapter tests", () => {
  it("cover every API engine that has a vendor: a new descriptor needs its case here, against its fake vendor", () => {
    // Web engines (surface "web") have theirs in web-engines.test.ts.
    expect(CASES.map((c) => c.engine).sort()).toEqual(
      VENDOR_DESCRIPTORS.filter((d) => d.surface === "api")
        .map((d) => d.name)
        .sort(),
    );
  });
});

for (const c of CASES) {
  describe(`engine adapter: ${c.engine}, through the vendor's official SDK against a fake speaking its wire format`, () => {
    let fake: FakeVendor<string>;
    beforeAll(async () => {
      fake = await c.start();
      fake.setAnswer(ANSWER);
    });
    afterAll(async () => fake.stop());

    it("returns the answer's text and the vendor's structured citations, and never sends the brand", async () => {
      fake.script("ok");
      const before = fake.requests.length;
      const { outcome, attempts } = await registryFor(c.engine, fake.url).ask(c.engine, queryFor(c));
      if (!outcome.ok) throw new Error(outcome.error.message);
      expect(attempts).toBe(1);
      expect(outcome.answer.text.replace(/\s*\[\d+\]/g, "")).toContain("HubSpot is the usual pick");
      const domains = outcome.answer.citations.map((citation) => domainOf(citation.url, citation.title));
      for (const domain of c.citedDomains) expect(domains).toContain(domain);
      expect(outcome.answer.searches).toEqual(c.searches);
      const request = fake.requests.slice(before).find((r) => c.path.test(r.path));
      if (request === undefined) throw new Error("no request reached the fake");
      c.checkRequest(request.body as Record<string, unknown> | null, request.query as Record<string, string>);
      // The engine is asked as a user would ask: the measured brand is never named to it.
      expect(request.rawBody).not.toMatch(/acme/i);
      expect(JSON.stringify(request.query)).not.toMatch(/acme/i);
    });

    it("retries after a 429, waiting what Retry-After says", async () => {
      fake.script("rate_limited", "ok");
      const before = fake.requests.length;
      // The registry waits with setTimeout: record the wait it asks for (and let it pass at once)
      // instead of timing it on the clock, which belongs in the benchmark.
      const waits: { ms: number; requestsWhenSet: number }[] = [];
      const realSetTimeout = globalThis.setTimeout;
      const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((
        callback: (...args: unknown[]) => void,
        delay?: number,
        ...args: unknown[]
      ) => {
        if (delay !== 1_000) return realSetTimeout(callback, delay, ...args);
        waits.push({ ms: delay, requestsWhenSet: fake.requests.length - before });
        return realSetTimeout(callback, 0, ...args);
      }) as typeof setTimeout);
      let result: Awaited<ReturnType<EngineRegistry["ask"]>>;
      try {
        result = await registryFor(c.engine, fake.url).ask(c.engine, queryFor(c));
      } finally {
        spy.mockRestore();
      }
      expect(result.outcome.ok).toBe(true);
      expect(result.attempts).toBe(2);
      // One wait of the vendor's second (`retry-after: 1`), after its 429 and before the retry.
      expect(waits).toEqual([{ ms: 1_000, requestsWhenSet: 1 }]);
      expect(fake.requests.slice(before).filter((r) => c.path.test(r.path))).toHaveLength(2);
    });

    it("reports ENGINE_FAILURE after a 500 outlasts the retries", async () => {
      fake.script("server_error");
      const { outcome, attempts } = await registryFor(c.engine, fake.url, { maxRetries: 0 }).ask(c.engine, queryFor(c));
      expect(attempts).toBe(1);
      expect(outcome).toMatchObject({ ok: false, error: { code: "ENGINE_FAILURE", retryable: true, status: 500 } });
    });

    it("reports ENGINE_FAILURE when the vendor does not answer in time", async () => {
      fake.script("hang");
      const { outcome } = await registryFor(c.engine, fake.url, { maxRetries: 0, timeoutMs: 300 }).ask(
        c.engine,
        queryFor(c),
      );
      expect(outcome).toMatchObject({ ok: false, error: { code: "ENGINE_FAILURE", retryable: true } });
      if (!outcome.ok) expect(outcome.error.message).toContain("in time");
    });

    it("reports ENGINE_FAILURE for a malformed body and for one of the wrong shape", async () => {
      for (const behaviour of ["malformed", "wrong_shape"]) {
        fake.script(behaviour);
        const { outcome } = await registryFor(c.engine, fake.url, { maxRetries: 0 }).ask(c.engine, queryFor(c));
        expect(outcome.ok, behaviour).toBe(false);
        if (!outcome.ok) expect(outcome.error.code).toBe("ENGINE_FAILURE");
      }
    });
  });
}

describe("engine adapter: google_ai_overview, when the overview comes on a second page", () => {
  it("follows SerpApi's page_token to the AI Overview engine", async () => {
    const fake = await startFakeSerpApi();
    try {
      fake.setAnswer(ANSWER);
      fake.script("paged", "ok");
      const { outcome } = await registryFor("google_ai_overview", fake.url).ask("google_ai_overview", QUERY);
      if (!outcome.ok) throw new Error(outcome.error.message);
      expect(outcome.answer.text).toContain("HubSpot");
      expect(fake.requests.map((r) => (r.query as Record<string, string>).engine)).toEqual([
        "google",
        "google_ai_overview",
      ]);
    } finally {
      await fake.stop();
    }
  });
});

describe("engine adapter: google_ai_overview, when the overview fails to load", () => {
  it("reports ENGINE_FAILURE and retries, rather than an answer without the brand", async () => {
    const fake = await startFakeSerpApi();
    try {
      fake.setAnswer(ANSWER);
      fake.script("overview_error", "ok");
      const { outcome, attempts } = await registryFor("google_ai_overview", fake.url).ask("google_ai_overview", QUERY);
      expect(attempts).toBe(2);
      if (!outcome.ok) throw new Error(outcome.error.message);
      expect(outcome.answer.text).toContain("HubSpot");

      fake.script("overview_error");
      const failed = await registryFor("google_ai_overview", fake.url, { maxRetries: 0 }).ask(
        "google_ai_overview",
        QUERY,
      );
      expect(failed.outcome).toMatchObject({
        ok: false,
        error: { code: "ENGINE_FAILURE", message: expect.stringContaining("failed to load") },
      });
    } finally {
      await fake.stop();
    }
  });
});

describe("engine registry", () => {
  it("answers ENGINE_FAILURE naming the variable when an engine has no credentials", async () => {
    const registry = new EngineRegistry(defaultEngineConfig(), pino({ level: "silent" }));
    for (const [engine, variable] of [
      ["chatgpt", "OPENAI_API_KEY"],
      ["claude", "ANTHROPIC_API_KEY"],
      ["gemini", "GEMINI_API_KEY"],
      ["perplexity", "PERPLEXITY_API_KEY"],
      ["grok", "XAI_API_KEY"],
      ["deepseek", "DEEPSEEK_API_KEY"],
      ["google_ai_overview", "SERPAPI_API_KEY"],
      ["google_ai_mode", "SERPAPI_API_KEY"],
      ["copilot", "SERPAPI_API_KEY"],
      ["chatgpt_web", "DATAFORSEO_API_KEY"],
      ["perplexity_web", "DATAFORSEO_API_KEY"],
      ["gemini_web", "DATAFORSEO_API_KEY"],
    ] as const) {
      const { outcome, attempts } = await registry.ask(engine, QUERY);
      expect(attempts).toBe(0);
      expect(outcome).toMatchObject({ ok: false, error: { code: "ENGINE_FAILURE", retryable: false } });
      if (!outcome.ok) expect(outcome.error.message).toContain(variable);
    }
    expect(registry.isConfigured("sandbox")).toBe(true);
  });

  it("serves the operator's OpenAI-compatible engines (Ollama, vLLM) under their own names", async () => {
    const fake = await startFakeChatCompletions({ flavour: "plain" });
    try {
      fake.setAnswer({ text: "Local models like this one mention HubSpot often.", citations: [] });
      const config = {
        ...defaultEngineConfig(),
        custom: [{ name: "llama_local", baseUrl: fake.url, model: "llama3.1", apiKey: null }],
      };
      const registry = new EngineRegistry(config, pino({ level: "silent" }));
      expect(registry.names()).toContain("llama_local");
      const { outcome } = await registry.ask("llama_local", { ...QUERY, country: null });
      expect(outcome).toMatchObject({
        ok: true,
        answer: { text: expect.stringContaining("HubSpot"), model: "llama3.1" },
      });
      expect(fake.requests[0]?.body).toMatchObject({ model: "llama3.1" });
    } finally {
      await fake.stop();
    }
  });

  it("never runs more requests at once for an engine than its concurrency limit", async () => {
    let inFlight = 0;
    let peak = 0;
    const registry = new EngineRegistry({ ...defaultEngineConfig(), concurrency: 3 }, pino({ level: "silent" }));
    // A stand-in vendor that only counts how many requests it holds at once.
    registry.use({
      name: "deepseek",
      reach: { persona: "system", country: null, conversation: "history" },
      async ask() {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        return { ok: true, answer: { text: "ok", model: "m", citations: [], searches: [], usage: usageOf({}) } };
      },
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => registry.ask("deepseek", { ...QUERY, country: null })),
    );
    expect(results.every((r) => r.outcome.ok)).toBe(true);
    expect(peak).toBe(3);
  });
});

describe("the searches an answer keeps", () => {
  it("are strings, trimmed, cut to 300 characters, without empty ones or duplicates ignoring case, at most 20", () => {
    expect(cleanSearches([" a  b ", "A B", "", 3, null, "c"])).toEqual(["a b", "c"]);
    expect(cleanSearches(["x".repeat(400)])).toEqual(["x".repeat(300)]);
    expect(cleanSearches(Array.from({ length: 30 }, (_, i) => `q${i}`))).toHaveLength(20);
  });
});
