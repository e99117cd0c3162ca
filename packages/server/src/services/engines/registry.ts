import type { Logger } from "../../lib/logger.ts";
import { engineCalls, engineCost, engineDuration } from "../../lib/metrics.ts";
import { ownValue } from "../../lib/own-keys.ts";
import { Redactor } from "../../lib/redact.ts";
import { inSpan, SpanKind, SpanStatusCode } from "../../lib/tracing.ts";
import { ChatCompletionsAdapter } from "./adapters/chat-completions.ts";
import { type BuiltInDescriptor, ENGINE_DESCRIPTORS, ENGINES } from "./catalog.ts";
import type { BuildOptions, VendorDescriptor } from "./descriptor.ts";
import { answerCostMicros, batchPrice, type EnginePrice, FREE } from "./prices.ts";
import { Semaphore } from "./semaphore.ts";
import { type EngineConfig, engineSecrets } from "./settings.ts";
import {
  type EngineAdapter,
  type EngineBatchApi,
  type EngineOutcome,
  type EngineQuery,
  type EngineReach,
  failure,
  reachRefusal,
} from "./types.ts";
import { variableNames } from "./variables.ts";

const MAX_RETRY_WAIT_SECONDS = 30;

/** One engine that can answer: its adapter and the bound on its requests in flight. */
export interface EngineLane {
  adapter: EngineAdapter;
  limit: Semaphore;
}

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
  readonly #lanes = new Map<string, EngineLane>();
  readonly #unavailable = new Map<string, string>();
  /**
   * The lanes of engines workspaces connected themselves (workspace-engines.ts), kept per process
   * so that their adapters and concurrency bounds outlive one call: `workspace\0engine` → the lane,
   * with the stored row's fingerprint it was built from.
   */
  readonly workspaceLanes = new Map<string, { fingerprint: string; lane: EngineLane }>();
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
      this.#unavailable.set(descriptor.name, missingKeyMessage(descriptor, this.workspaceKeys));
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
    this.#lanes.set(adapter.name, { adapter, limit: new Semaphore(concurrency) });
  }

  /** The configuration the registry was built from: workspaces' own engines are built with it too. */
  get config(): EngineConfig {
    return this.#config;
  }

  /** Whether workspaces may connect engines themselves (SIGHTLINE_WORKSPACE_ENGINE_KEYS). */
  get workspaceKeys(): boolean {
    return this.#config.workspaceKeys ?? true;
  }

  /** The server's own lane for an engine: built from the operator's keys, or undefined. */
  /** How a configured engine takes a persona, a country and a conversation (null when it cannot answer here). */
  reachOf(name: string): EngineReach | null {
    return this.#lanes.get(name)?.adapter.reach ?? null;
  }

  laneOf(name: string): EngineLane | undefined {
    return this.#lanes.get(name);
  }

  /** Why the server cannot answer for an engine by itself, or null when it can. */
  reasonOf(name: string): string | null {
    if (this.#lanes.has(name)) return null;
    return this.#unavailable.get(name) ?? `unknown engine ${name}`;
  }

  /** The redactor vendors' texts are scrubbed with: the operator's secrets and credential shapes. */
  get redactor(): Redactor {
    return this.#redactor;
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
    return this.#lanes.get(name)?.adapter.batch ?? null;
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
  settleBatchAnswer(name: string, outcome: EngineOutcome, redactor = this.#redactor): AskResult {
    const scrubbed = scrubOutcome(outcome, redactor);
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
    return this.#lanes.has(name);
  }

  /** Requests the engine may have in flight now (it adapts to 429s); null for an engine that cannot answer. */
  concurrencyOf(name: string): number | null {
    return this.#lanes.get(name)?.limit.limit ?? null;
  }

  /** Replaces an engine's adapter (tests put a fake vendor behind an official SDK this way). */
  use(adapter: EngineAdapter, concurrency?: number): void {
    this.#unavailable.delete(adapter.name);
    this.#add(adapter, concurrency);
  }

  /** Asks with the server's own credentials (a workspace's are in workspace-engines.ts). */
  ask(name: string, query: EngineQuery): Promise<AskResult> {
    return this.askVia(name, this.#lanes.get(name), query, this.#redactor);
  }

  /**
   * Asks through `lane` with the same retry policy whoever's credentials it holds; a missing lane
   * answers why (`reason`, by default the server's). Vendors' texts are scrubbed with `redactor`.
   */
  askVia(
    name: string,
    lane: EngineLane | undefined,
    query: EngineQuery,
    redactor: Redactor,
    reason: string | null = this.reasonOf(name),
  ): Promise<AskResult> {
    // One span per question, its retries inside it: the vendor, how it went, what it cost.
    return inSpan(
      `engine ${name}`,
      { "sightline.engine": name, "sightline.engine.adapter": lane?.adapter.constructor.name ?? "none" },
      async (span) => {
        const result = await this.#askVia(name, lane, query, redactor, reason);
        span.setAttributes({
          "sightline.engine.outcome": result.outcome.ok ? "ok" : "error",
          "sightline.engine.attempts": result.attempts,
          "sightline.engine.latency_ms": result.latencyMs,
          ...(result.costMicros === null ? {} : { "sightline.engine.cost_usd": result.costMicros / 1_000_000 }),
        });
        if (!result.outcome.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: result.outcome.error.message });
        return result;
      },
      SpanKind.CLIENT,
    );
  }

  async #askVia(
    name: string,
    lane: EngineLane | undefined,
    query: EngineQuery,
    redactor: Redactor,
    reason: string | null,
  ): Promise<AskResult> {
    const started = performance.now();
    if (lane === undefined) {
      return { outcome: failure(reason ?? `unknown engine ${name}`), attempts: 0, latencyMs: 0, costMicros: null };
    }
    const { adapter, limit } = lane;
    const refused = reachRefusal(name, adapter.reach, query);
    if (refused !== null) {
      engineCalls.inc({ engine: name, outcome: "refused" });
      return { outcome: failure(refused), attempts: 0, latencyMs: 0, costMicros: null };
    }
    let attempts = 0;
    for (;;) {
      attempts++;
      // Each attempt takes a slot of its own, and a 429 shrinks the engine's bound before the
      // retry queues again (semaphore.ts); a request waiting to retry holds no slot.
      const outcome = await limit.run(
        async () => scrubOutcome(await adapter.ask(query, AbortSignal.timeout(this.#config.timeoutMs)), redactor),
        (answered) => !answered.ok && answered.error.status === 429,
      );
      if (outcome.ok || !outcome.error.retryable || attempts > this.#config.maxRetries) {
        const result = {
          outcome,
          attempts,
          latencyMs: Math.round(performance.now() - started),
          costMicros: outcome.ok ? answerCostMicros(this.priceOf(name), outcome.answer.usage) : null,
        };
        countEngineCall(name, result);
        return result;
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

/** One question asked of an engine, in `/metrics`: its outcome, its time and what it cost. */
function countEngineCall(engine: string, result: AskResult): void {
  const outcome = result.outcome.ok ? "ok" : "error";
  engineCalls.inc({ engine, outcome });
  engineDuration.observe({ engine, outcome }, result.latencyMs / 1000);
  if (result.costMicros !== null && result.costMicros > 0) engineCost.inc({ engine }, result.costMicros / 1_000_000);
}

/**
 * What a vendor sent back, scrubbed before anyone stores or logs it: its error text may echo our
 * key ("Incorrect API key provided: sk-…"), and no answer may carry a configured secret.
 */
export function scrubOutcome(outcome: EngineOutcome, redactor: Redactor): EngineOutcome {
  if (!outcome.ok) return { ok: false, error: { ...outcome.error, message: redactor.scrub(outcome.error.message) } };
  const text = redactor.scrubKnown(outcome.answer.text);
  return text === outcome.answer.text ? outcome : { ok: true, answer: { ...outcome.answer, text } };
}

/**
 * Why a vendor engine without a key cannot answer, naming where to connect it: the workspace's
 * Settings → Engines, or, when the operator forbids workspace keys, the server's variable.
 */
function missingKeyMessage(descriptor: VendorDescriptor, workspaceKeys: boolean): string {
  const variable = variableNames(descriptor).apiKey;
  return workspaceKeys
    ? `no credentials for ${descriptor.name}: connect it in Settings → Engines, or set ${variable} on the server`
    : `no credentials for ${descriptor.name} are configured on this server (set ${variable})`;
}
