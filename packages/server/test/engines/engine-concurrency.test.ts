import pino from "pino";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.ts";
import { EngineRegistry } from "../../src/services/engines/registry.ts";
import { Semaphore } from "../../src/services/engines/semaphore.ts";
import { defaultEngineConfig } from "../../src/services/engines/settings.ts";
import { type EngineAdapter, type EngineOutcome, failure } from "../../src/services/engines/types.ts";
import { usageOf } from "../../src/services/engines/usage.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("an engine's bound on requests in flight", () => {
  it("never lets more run than the bound, halves it when refused, and raises it back one at a time", async () => {
    const limit = new Semaphore(8);
    let running = 0;
    let most = 0;
    const task = (refused: boolean) => async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
      return refused;
    };
    await Promise.all(Array.from({ length: 40 }, () => limit.run(task(false), (r) => r)));
    expect(most).toBe(8);
    await limit.run(task(true), (r) => r);
    expect(limit.limit).toBe(4);
    await limit.run(task(true), (r) => r);
    await limit.run(task(true), (r) => r);
    await limit.run(task(true), (r) => r);
    expect(limit.limit).toBe(1);
    // Each `limit` accepted requests in a row raise it by one: 1, then 2 more, then 3 more…
    await limit.run(task(false), (r) => r);
    expect(limit.limit).toBe(2);
    for (let i = 0; i < 2; i++) await limit.run(task(false), (r) => r);
    expect(limit.limit).toBe(3);
    most = 0;
    await Promise.all(Array.from({ length: 30 }, () => limit.run(task(false), (r) => r)));
    expect(most).toBeLessThanOrEqual(8);
    expect(limit.limit).toBeGreaterThan(3);
    for (let i = 0; i < 100; i++) await limit.run(task(false), (r) => r);
    expect(limit.limit).toBe(8);
  });
});

/**
 * A vendor that accepts 3 requests at a time and answers 429 (with a short Retry-After) beyond:
 * what a rate-limited API does, so that the registry's adaptive bound can be seen to find it.
 */
class NarrowVendor implements EngineAdapter {
  readonly name = "narrow";
  readonly reach = { persona: "system", country: null, conversation: "history" } as const;
  running = 0;
  refused = 0;
  async ask(): Promise<EngineOutcome> {
    if (this.running >= 3) {
      this.refused++;
      return failure("rate limited", { retryable: true, status: 429, retryAfter: 0.005 });
    }
    this.running++;
    await tick();
    this.running--;
    return {
      ok: true,
      answer: { text: "An answer.", model: "narrow-1", citations: [], searches: [], usage: usageOf({}) },
    };
  }
}

describe("the registry's engine concurrency", () => {
  it("backs off when the vendor answers 429, and every request still succeeds", async () => {
    const registry = new EngineRegistry({ ...defaultEngineConfig(), maxRetries: 10 }, pino({ level: "silent" }));
    const vendor = new NarrowVendor();
    registry.use(vendor, 32);
    const query = { prompt: "best CRM", country: null, language: null, sample: 1, seed: "s" };
    const results = await Promise.all(Array.from({ length: 200 }, () => registry.ask("narrow", query)));
    expect(results.every((r) => r.outcome.ok)).toBe(true);
    expect(vendor.refused).toBeGreaterThan(0);
    // Refused requests halved the bound from 32; it did not stay there.
    expect(registry.concurrencyOf("narrow")).toBeLessThan(32);
  });

  it("takes each engine's bound from SIGHTLINE_ENGINE_CONCURRENCY_BY_ENGINE, the sandbox's included", () => {
    const config = loadConfig(
      {
        SIGHTLINE_ENGINE_CONCURRENCY: "6",
        SIGHTLINE_ENGINE_CONCURRENCY_BY_ENGINE: '{"sandbox": 128, "chatgpt": 32}',
        OPENAI_API_KEY: "sk-test",
      },
      "/",
    );
    expect(config.engines.concurrencyByEngine).toEqual({ sandbox: 128, chatgpt: 32 });
    const registry = new EngineRegistry(config.engines, pino({ level: "silent" }));
    expect(registry.concurrencyOf("sandbox")).toBe(128);
    expect(registry.concurrencyOf("chatgpt")).toBe(32);
    expect(registry.concurrencyOf("sandbox_web")).toBe(64);
    expect(new EngineRegistry(defaultEngineConfig(), pino({ level: "silent" })).concurrencyOf("sandbox")).toBe(64);
  });

  it("refuses an unknown engine or a bound out of range, naming the variable", () => {
    for (const raw of ['{"chatgtp": 8}', '{"chatgpt": 0}', '{"chatgpt": "8"}', "[8]", "eight"]) {
      let error: unknown;
      try {
        loadConfig({ SIGHTLINE_ENGINE_CONCURRENCY_BY_ENGINE: raw }, "/");
      } catch (e) {
        error = e;
      }
      expect(error, raw).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join("\n"), raw).toContain("SIGHTLINE_ENGINE_CONCURRENCY_BY_ENGINE");
    }
  });
});
