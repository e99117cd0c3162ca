import type { Logger } from "../../lib/logger.ts";
import { ownValue } from "../../lib/own-keys.ts";
import { Redactor } from "../../lib/redact.ts";
import { ChatCompletionsAdapter } from "./adapters/chat-completions.ts";
import { type BuiltInDescriptor, ENGINE_DESCRIPTORS, ENGINES } from "./catalog.ts";
import type { BuildOptions } from "./descriptor.ts";
import { answerCostMicros, batchPrice, type EnginePrice, FREE } from "./prices.ts";
import { Semaphore } from "./semaphore.ts";
import { type EngineConfig, engineSecrets } from "./settings.ts";
import { type EngineAdapter, type EngineBatchApi, type EngineOutcome, type EngineQuery, failure } from "./types.ts";
import { variableNames } from "./variables.ts";

const MAX_RETRY_WAIT_SECONDS = 30;

export interface AskResult {
  outcome: EngineOutcome;
  attempts: number;
  latencyMs: number;
  /** What the answer cost in micro-USD (prices.ts); null when it failed (vendors bill no failure). */
  costMicros: number | null;
}

/**
 * Every engine this server knows, built from the configuration: adapters for those with
 * credentials, and for the others the reason they cannot answer. Requests go through a per-engine
 * concurrency limit and the same retry policy for every vendor: 429, 5xx and timeouts are retried
 * up to `maxRetries` times, waiting what Retry-After says (at most 30 s) or backing off.
 */
export class EngineRegistry {
  readonly #adapters = new Map<string, EngineAdapter>();
  readonly #unavailable = new Map<string, string>();
  readonly #limits = new Map<string, Semaphore>();
  readonly #config: EngineConfig;
  readonly #logger: Logger;
  readonly #redactor: Redactor;

  /** `redactor` scrubs vendors' error texts; by default of the engines' own keys. */
  constructor(config: EngineConfig, logger: Logger, redactor = new Redactor(engineSecrets(config))) {
    this.#config = config;
    this.#logger = logger;
    this.#redactor = redactor;
    const options: BuildOptions = { timeoutMs: config.timeoutMs, sandboxLatencyMs: config.sandboxLatencyMs };
    for (const descriptor of ENGINE_DESCRIPTORS) this.#build(descriptor, options);
    for (const custom of config.custom) {
      this.#add(
        new ChatCompletionsAdapter(
          { name: custom.name, apiKey: custom.apiKey ?? "not-needed", baseUrl: custom.baseUrl, model: custom.model },
          config.timeoutMs,
        ),
      );
    }
  }

  /** The descriptor's adapter, or why it cannot answer: its vendor's key is not configured. */
  #build(descriptor: BuiltInDescriptor, options: BuildOptions): void {
    if (descriptor.credentials === "none") {
      this.#add(
        this.#named(descriptor, descriptor.build(null, options)),
        ownValue(this.#config.concurrencyByEngine, descriptor.name) ?? descriptor.concurrency,
      );
      return;
    }
    const settings = this.#config.vendors[descriptor.name];
    if (settings.apiKey === null) {
      this.#unavailable.set(
        descriptor.name,
        `no credentials for ${descriptor.name} are configured on this server (set ${variableNames(descriptor).apiKey})`,
      );
      return;
    }
    this.#add(this.#named(descriptor, descriptor.build({ ...settings, apiKey: settings.apiKey }, options)));
  }

  #named(descriptor: BuiltInDescriptor, adapter: EngineAdapter): EngineAdapter {
    if (adapter.name !== descriptor.name)
      throw new Error(`the ${descriptor.name} descriptor built an adapter named ${adapter.name}`);
    return adapter;
  }

  #add(
    adapter: EngineAdapter,
    concurrency = ownValue(this.#config.concurrencyByEngine, adapter.name) ?? this.#config.concurrency,
  ): void {
    this.#adapters.set(adapter.name, adapter);
    this.#limits.set(adapter.name, new Semaphore(concurrency));
  }

  /** Built-in engines and the operator's custom ones: the names requests may use. */
  names(): string[] {
    return [...ENGINES, ...this.#config.custom.map((c) => c.name)];
  }

  isKnown(name: string): boolean {
    return this.names().includes(name);
  }

  /** The prices an engine's answers are costed at: its list prices, under the operator's own. */
  priceOf(name: string): EnginePrice {
    const listed = ENGINE_DESCRIPTORS.find((descriptor) => descriptor.name === name)?.price ?? FREE;
    return { ...listed, ...ownValue(this.#config.pricesByEngine, name) };
  }

  /** The engine's batch API, when its vendor has one and its key is configured (ADR 0030). */
  batchOf(name: string): EngineBatchApi | null {
    return this.#adapters.get(name)?.batch ?? null;
  }

  /** How long to wait before looking at a vendor's batch again. */
  get batchPollMs(): number {
    return (this.#config.batchPollSeconds ?? 60) * 1000;
  }

  /** How long one call to a vendor may take. */
  get timeoutMs(): number {
    return this.#config.timeoutMs;
  }

  /** An answer a vendor's batch returned, scrubbed and priced at the batch rate, as `ask` returns one. */
  settleBatchAnswer(name: string, outcome: EngineOutcome): AskResult {
    const scrubbed = this.#scrub(outcome);
    return {
      outcome: scrubbed,
      attempts: 1,
      latencyMs: 0,
      costMicros: scrubbed.ok ? answerCostMicros(batchPrice(this.priceOf(name)), scrubbed.answer.usage) : null,
    };
  }

  /** A vendor's error text with every configured secret removed, fit to store or log. */
  scrubMessage(text: string): string {
    return this.#redactor.scrub(text);
  }

  isConfigured(name: string): boolean {
    return this.#adapters.has(name);
  }

  /** Requests the engine may have in flight now (it adapts to 429s); null for an engine that cannot answer. */
  concurrencyOf(name: string): number | null {
    return this.#limits.get(name)?.limit ?? null;
  }

  /** Replaces an engine's adapter (tests put a fake vendor behind an official SDK this way). */
  use(adapter: EngineAdapter, concurrency?: number): void {
    this.#unavailable.delete(adapter.name);
    this.#add(adapter, concurrency);
  }

  /**
   * What a vendor sent back, scrubbed before anyone stores or logs it: its error text may echo our
   * key ("Incorrect API key provided: sk-…"), and no answer may carry a configured secret.
   */
  #scrub(outcome: EngineOutcome): EngineOutcome {
    if (!outcome.ok)
      return { ok: false, error: { ...outcome.error, message: this.#redactor.scrub(outcome.error.message) } };
    const text = this.#redactor.scrubKnown(outcome.answer.text);
    return text === outcome.answer.text ? outcome : { ok: true, answer: { ...outcome.answer, text } };
  }

  async ask(name: string, query: EngineQuery): Promise<AskResult> {
    const started = performance.now();
    const adapter = this.#adapters.get(name);
    const limit = this.#limits.get(name);
    if (adapter === undefined || limit === undefined) {
      return {
        outcome: failure(this.#unavailable.get(name) ?? `unknown engine ${name}`),
        attempts: 0,
        latencyMs: 0,
        costMicros: null,
      };
    }
    let attempts = 0;
    for (;;) {
      attempts++;
      // Each attempt takes a slot of its own, and a 429 shrinks the engine's bound before the
      // retry queues again (semaphore.ts); a request waiting to retry holds no slot.
      const outcome = await limit.run(
        async () => this.#scrub(await adapter.ask(query, AbortSignal.timeout(this.#config.timeoutMs))),
        (answered) => !answered.ok && answered.error.status === 429,
      );
      if (outcome.ok || !outcome.error.retryable || attempts > this.#config.maxRetries) {
        return {
          outcome,
          attempts,
          latencyMs: Math.round(performance.now() - started),
          costMicros: outcome.ok ? answerCostMicros(this.priceOf(name), outcome.answer.usage) : null,
        };
      }
      const waitSeconds = Math.min(
        MAX_RETRY_WAIT_SECONDS,
        outcome.error.retryAfter ?? 2 ** (attempts - 1) * (0.5 + Math.random() / 2),
      );
      this.#logger.debug(
        { engine: name, attempt: attempts, waitSeconds, error: outcome.error.message },
        "retrying engine",
      );
      await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1000));
    }
  }
}
