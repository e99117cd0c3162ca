import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { VENDOR_DESCRIPTORS, type VendorEngine } from "../../src/services/engines/catalog.ts";
import { EngineRegistry } from "../../src/services/engines/registry.ts";
import { defaultEngineConfig, type EngineConfig } from "../../src/services/engines/settings.ts";
import type { EngineQuery } from "../../src/services/engines/types.ts";
import { type FakeVendor, startFakeDataForSeo, startFakeSerpApi } from "../helpers/fake-vendors/index.ts";

/**
 * The web surfaces (DESIGN.md §6, ADR 0022): each engine through the real registry against a
 * local fake speaking its provider's wire format, SerpApi's answer engines and DataForSEO's LLM
 * Scraper. Same acceptance as the API engines in engines.test.ts, plus each provider's own ways
 * of failing.
 */

const ANSWER = {
  text: "For a small agency, HubSpot is the usual pick, while Acme CRM is praised for its price.",
  citations: [
    { url: "https://www.g2.com/categories/crm", title: "Best CRM Software" },
    { url: "https://acmecrm.com/pricing", title: "Acme CRM pricing" },
  ],
  // The second repeats the first but for case and spaces.
  searches: ["best crm small agency", "  Best CRM   small agency ", "HubSpot vs Acme CRM pricing"],
};

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

/** DataForSEO's key is the API login and password. */
const DATAFORSEO_KEY = "test-login:test-password";

interface Case {
  engine: VendorEngine;
  start: () => Promise<FakeVendor<string>>;
  apiKey: string;
  path: RegExp;
  checkRequest(request: { body: unknown; query: Record<string, string>; authorization: string | undefined }): void;
  citedDomains: string[];
  searches: string[];
}

function dataForSeoCase(engine: VendorEngine, product: string, searches: string[]): Case {
  return {
    engine,
    start: () => startFakeDataForSeo(),
    apiKey: DATAFORSEO_KEY,
    path: new RegExp(`^/v3/ai_optimization/${product}/llm_scraper/live/advanced$`),
    checkRequest: ({ body, authorization }) => {
      expect(body).toEqual([{ keyword: QUERY.prompt, location_code: 2840, language_code: "en" }]);
      expect(authorization).toBe(`Basic ${Buffer.from(DATAFORSEO_KEY).toString("base64")}`);
    },
    citedDomains: ["g2.com", "acmecrm.com"],
    searches,
  };
}

const CASES: Case[] = [
  {
    engine: "google_ai_mode",
    start: () => startFakeSerpApi(),
    apiKey: "test-key",
    path: /^\/search\.json$/,
    checkRequest: ({ query }) =>
      expect(query).toEqual({ engine: "google_ai_mode", q: QUERY.prompt, gl: "us", hl: "en", api_key: "test-key" }),
    citedDomains: ["g2.com", "acmecrm.com"],
    searches: [],
  },
  {
    engine: "copilot",
    start: () => startFakeSerpApi(),
    apiKey: "test-key",
    path: /^\/search\.json$/,
    // SerpApi's Copilot API takes the query alone.
    checkRequest: ({ query }) =>
      expect(query).toEqual({ engine: "bing_copilot", q: QUERY.prompt, api_key: "test-key" }),
    citedDomains: ["g2.com", "acmecrm.com"],
    searches: [],
  },
  dataForSeoCase("chatgpt_web", "chat_gpt", SEARCHES),
  dataForSeoCase("perplexity_web", "perplexity", []),
  dataForSeoCase("gemini_web", "gemini", []),
];

function registryFor(
  engine: VendorEngine,
  url: string,
  apiKey: string,
  overrides: Partial<EngineConfig> = {},
): EngineRegistry {
  const config = defaultEngineConfig();
  config.vendors[engine] = { ...config.vendors[engine], apiKey, baseUrl: url };
  return new EngineRegistry({ ...config, timeoutMs: 1_500, maxRetries: 1, ...overrides }, pino({ level: "silent" }));
}

/**
 * Runs `act` with the registry's waits of `ms` milliseconds ended at once, returning each wait with
 * the number of requests the fake had received when it began: which wait, not how long on the clock.
 */
async function skippingWaits<T>(
  fake: FakeVendor<string>,
  ms: number,
  act: () => Promise<T>,
): Promise<{ value: T; waits: { ms: number; requestsWhenSet: number }[] }> {
  const before = fake.requests.length;
  const waits: { ms: number; requestsWhenSet: number }[] = [];
  const realSetTimeout = globalThis.setTimeout;
  const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((
    callback: (...args: unknown[]) => void,
    delay?: number,
    ...args: unknown[]
  ) => {
    if (delay !== ms) return realSetTimeout(callback, delay, ...args);
    waits.push({ ms: delay, requestsWhenSet: fake.requests.length - before });
    return realSetTimeout(callback, 0, ...args);
  }) as typeof setTimeout);
  try {
    return { value: await act(), waits };
  } finally {
    spy.mockRestore();
  }
}

function domainOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, "");
}

describe("web engine adapter tests", () => {
  it("cover every web engine that has a vendor: a new web descriptor needs its case here", () => {
    expect(CASES.map((c) => c.engine).sort()).toEqual(
      VENDOR_DESCRIPTORS.filter((d) => d.surface === "web")
        .map((d) => d.name)
        .sort(),
    );
  });
});

for (const c of CASES) {
  describe(`web engine adapter: ${c.engine}, through the registry against a fake speaking its provider's wire format`, () => {
    let fake: FakeVendor<string>;
    beforeAll(async () => {
      fake = await c.start();
      fake.setAnswer(ANSWER);
    });
    afterAll(async () => fake.stop());

    it("returns the answer's text, its structured citations and searches, and never sends the brand", async () => {
      fake.script("ok");
      const before = fake.requests.length;
      const { outcome, attempts } = await registryFor(c.engine, fake.url, c.apiKey).ask(
        c.engine,
        c.engine === "copilot" ? { ...QUERY, country: null } : QUERY,
      );
      if (!outcome.ok) throw new Error(outcome.error.message);
      expect(attempts).toBe(1);
      expect(outcome.answer.text).toContain("HubSpot is the usual pick");
      expect(outcome.answer.model.length).toBeGreaterThan(0);
      const domains = outcome.answer.citations.map((citation) => domainOf(citation.url));
      for (const domain of c.citedDomains) expect(domains).toContain(domain);
      expect(outcome.answer.citations.find((citation) => citation.url.includes("g2.com"))?.title).toBe(
        "Best CRM Software",
      );
      expect(outcome.answer.searches).toEqual(c.searches);
      const request = fake.requests.slice(before).find((r) => c.path.test(r.path));
      if (request === undefined) throw new Error("no request reached the fake");
      c.checkRequest({
        body: request.body,
        query: request.query,
        authorization: request.headers.authorization,
      });
      // The engine is asked as a user would ask: the measured brand is never named to it.
      expect(request.rawBody).not.toMatch(/acme/i);
      expect(JSON.stringify(request.query)).not.toMatch(/acme/i);
    });

    it("retries after a 429, waiting what Retry-After says", async () => {
      fake.script("rate_limited", "ok");
      const before = fake.requests.length;
      const { value, waits } = await skippingWaits(fake, 1_000, () =>
        registryFor(c.engine, fake.url, c.apiKey).ask(
          c.engine,
          c.engine === "copilot" ? { ...QUERY, country: null } : QUERY,
        ),
      );
      expect(value.outcome.ok).toBe(true);
      expect(value.attempts).toBe(2);
      // One wait of the provider's second (`retry-after: 1`), after its 429 and before the retry.
      expect(waits).toEqual([{ ms: 1_000, requestsWhenSet: 1 }]);
      expect(fake.requests.slice(before).filter((r) => c.path.test(r.path))).toHaveLength(2);
    });

    it("reports ENGINE_FAILURE after a 500 outlasts the retries", async () => {
      fake.script("server_error");
      const { outcome, attempts } = await registryFor(c.engine, fake.url, c.apiKey, { maxRetries: 0 }).ask(
        c.engine,
        c.engine === "copilot" ? { ...QUERY, country: null } : QUERY,
      );
      expect(attempts).toBe(1);
      expect(outcome).toMatchObject({ ok: false, error: { code: "ENGINE_FAILURE", retryable: true, status: 500 } });
    });

    it("reports ENGINE_FAILURE when the provider does not answer in time", async () => {
      fake.script("hang");
      const { outcome } = await registryFor(c.engine, fake.url, c.apiKey, { maxRetries: 0, timeoutMs: 300 }).ask(
        c.engine,
        c.engine === "copilot" ? { ...QUERY, country: null } : QUERY,
      );
      expect(outcome).toMatchObject({ ok: false, error: { code: "ENGINE_FAILURE", retryable: true } });
      if (!outcome.ok) expect(outcome.error.message).toContain("in time");
    });

    it("reports ENGINE_FAILURE for a malformed body and for one of the wrong shape", async () => {
      for (const behaviour of ["malformed", "wrong_shape"]) {
        fake.script(behaviour);
        const { outcome } = await registryFor(c.engine, fake.url, c.apiKey, { maxRetries: 0 }).ask(
          c.engine,
          c.engine === "copilot" ? { ...QUERY, country: null } : QUERY,
        );
        expect(outcome, behaviour).toMatchObject({
          ok: false,
          error: { code: "ENGINE_FAILURE", retryable: false, message: `${c.engine} answered an unreadable body` },
        });
      }
    });
  });
}

describe("web engine adapter: google_ai_mode and copilot, SerpApi's own cases", () => {
  let fake: Awaited<ReturnType<typeof startFakeSerpApi>>;
  beforeAll(async () => {
    fake = await startFakeSerpApi();
    fake.setAnswer(ANSWER);
  });
  afterAll(async () => fake.stop());

  it("reads AI Mode's reconstructed markdown when it comes without text blocks", async () => {
    fake.script("markdown_only");
    const { outcome } = await registryFor("google_ai_mode", fake.url, "test-key").ask("google_ai_mode", QUERY);
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.answer.text).toBe(ANSWER.text);
    expect(outcome.answer.citations.map((citation) => citation.url)).toEqual(ANSWER.citations.map((c) => c.url));
  });

  it("gives Copilot's header as the answer's title", async () => {
    fake.script("ok");
    const { outcome } = await registryFor("copilot", fake.url, "test-key").ask("copilot", { ...QUERY, country: null });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.answer.text.split("\n")[0]).toBe("## For a small agency");
    expect(outcome.answer.model).toBe("bing-copilot");
  });

  it("reports a search without an answer as a failure worth retrying, never as an answer without the brand", async () => {
    for (const engine of ["google_ai_mode", "copilot"] as const) {
      fake.script("no_answer");
      const { outcome } = await registryFor(engine, fake.url, "test-key", { maxRetries: 0 }).ask(
        engine,
        engine === "copilot" ? { ...QUERY, country: null } : QUERY,
      );
      expect(outcome, engine).toMatchObject({
        ok: false,
        error: { retryable: true, message: expect.stringContaining("hasn't returned any results") },
      });
    }
  });
});

describe("web engine adapter: chatgpt_web, perplexity_web and gemini_web, DataForSEO's own cases", () => {
  let fake: Awaited<ReturnType<typeof startFakeDataForSeo>>;
  beforeAll(async () => {
    fake = await startFakeDataForSeo();
    fake.setAnswer(ANSWER);
  });
  afterAll(async () => fake.stop());
  afterEach(() => vi.restoreAllMocks());

  it("retries the rate limit DataForSEO reports in the body of an HTTP 200 (40202)", async () => {
    fake.script("in_body_rate_limit", "ok");
    // The registry backs off 2^(n-1) × (0.5 + random/2) seconds: with random at 0, half a second.
    vi.spyOn(Math, "random").mockReturnValue(0);
    const { value, waits } = await skippingWaits(fake, 500, () =>
      registryFor("chatgpt_web", fake.url, DATAFORSEO_KEY).ask("chatgpt_web", QUERY),
    );
    expect(value.outcome.ok).toBe(true);
    expect(value.attempts).toBe(2);
    expect(waits).toEqual([{ ms: 500, requestsWhenSet: 1 }]);
  });

  it("reports a task's internal error (50000) as retryable and an invalid field (40501) as final", async () => {
    fake.script("in_body_internal_error");
    const internal = await registryFor("perplexity_web", fake.url, DATAFORSEO_KEY, { maxRetries: 0 }).ask(
      "perplexity_web",
      QUERY,
    );
    expect(internal.outcome).toMatchObject({
      ok: false,
      error: { code: "ENGINE_FAILURE", retryable: true, status: null, message: expect.stringContaining("50000") },
    });
    fake.script("in_body_invalid_field");
    const invalid = await registryFor("gemini_web", fake.url, DATAFORSEO_KEY).ask("gemini_web", QUERY);
    expect(invalid.attempts).toBe(1);
    expect(invalid.outcome).toMatchObject({
      ok: false,
      error: { retryable: false, message: "gemini_web: DataForSEO status 40501: Invalid Field." },
    });
  });

  it("asks from the analysis's country and language, and sends the prompt as typed", async () => {
    fake.script("ok");
    const before = fake.requests.length;
    const prompt = "best C++ IDE for 100% beginners";
    const { outcome } = await registryFor("chatgpt_web", fake.url, DATAFORSEO_KEY).ask("chatgpt_web", {
      ...QUERY,
      prompt,
      country: "DE",
      language: "de-DE",
    });
    expect(outcome.ok).toBe(true);
    const [request] = fake.requests.slice(before);
    // DataForSEO decodes %## and + in a keyword: escaped, the keyword it reads is the prompt.
    expect(request?.body).toEqual([
      { keyword: "best C%2B%2B IDE for 100%25 beginners", location_code: 2276, language_code: "de" },
    ]);
    expect(JSON.stringify(request?.body)).not.toContain("simulation");

    await registryFor("chatgpt_web", fake.url, DATAFORSEO_KEY).ask("chatgpt_web", {
      ...QUERY,
      country: null,
      language: null,
    });
    // DataForSEO requires a location and a language: the United States and English by default.
    expect(fake.requests.at(-1)?.body).toMatchObject([{ location_code: 2840, language_code: "en" }]);
  });

  it("refuses a key that is not login:password before asking anything", async () => {
    const before = fake.requests.length;
    const { outcome } = await registryFor("chatgpt_web", fake.url, "just-a-password").ask("chatgpt_web", QUERY);
    expect(outcome).toMatchObject({
      ok: false,
      error: { retryable: false, message: expect.stringContaining("login:password") },
    });
    expect(fake.requests).toHaveLength(before);
  });
});
