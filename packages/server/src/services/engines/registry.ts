import type { EngineConfig, VendorEngine } from "../../config/engines.ts";
import { VENDORS } from "../../config/engines.ts";
import type { Logger } from "../../lib/logger.ts";
import { AnthropicAdapter } from "./adapters/anthropic.ts";
import { ChatCompletionsAdapter } from "./adapters/chat-completions.ts";
import { GeminiAdapter } from "./adapters/gemini.ts";
import { OpenAIResponsesAdapter } from "./adapters/openai-responses.ts";
import { SandboxAdapter } from "./adapters/sandbox.ts";
import { SerpApiAdapter } from "./adapters/serpapi.ts";
import { ENGINES } from "./catalog.ts";
import { Semaphore } from "./semaphore.ts";
import { type EngineAdapter, type EngineOutcome, type EngineQuery, failure } from "./types.ts";

const DEFAULT_BASE_URLS: Partial<Record<VendorEngine, string>> = {
  perplexity: "https://api.perplexity.ai",
  deepseek: "https://api.deepseek.com",
};

const MAX_RETRY_WAIT_SECONDS = 30;

export interface AskResult {
  outcome: EngineOutcome;
  attempts: number;
  latencyMs: number;
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

  constructor(config: EngineConfig, logger: Logger) {
    this.#config = config;
    this.#logger = logger;
    this.#add(new SandboxAdapter(config.sandboxLatencyMs), 64);
    for (const engine of Object.keys(VENDORS) as VendorEngine[]) {
      const settings = config.vendors[engine];
      const { prefix } = VENDORS[engine];
      if (settings.apiKey === null) {
        this.#unavailable.set(
          engine,
          `no credentials for ${engine} are configured on this server (set ${prefix}_API_KEY)`,
        );
        continue;
      }
      const withKey = { ...settings, apiKey: settings.apiKey };
      const timeout = config.timeoutMs;
      switch (engine) {
        case "chatgpt":
          this.#add(new OpenAIResponsesAdapter(withKey, timeout));
          break;
        case "claude":
          this.#add(new AnthropicAdapter(withKey, timeout));
          break;
        case "gemini":
          this.#add(new GeminiAdapter(withKey, timeout));
          break;
        case "grok":
          this.#add(
            new OpenAIResponsesAdapter({ ...withKey, baseUrl: settings.baseUrl ?? "https://api.x.ai/v1" }, timeout, {
              name: "grok",
              userLocation: false,
            }),
          );
          break;
        case "google_ai_overview":
          this.#add(new SerpApiAdapter(withKey, timeout));
          break;
        default:
          this.#add(
            new ChatCompletionsAdapter(
              {
                name: engine,
                apiKey: settings.apiKey,
                baseUrl: settings.baseUrl ?? DEFAULT_BASE_URLS[engine] ?? "",
                model: settings.model,
              },
              timeout,
            ),
          );
      }
    }
    for (const custom of config.custom) {
      this.#add(
        new ChatCompletionsAdapter(
          { name: custom.name, apiKey: custom.apiKey ?? "not-needed", baseUrl: custom.baseUrl, model: custom.model },
          config.timeoutMs,
        ),
      );
    }
  }

  #add(adapter: EngineAdapter, concurrency = this.#config.concurrency): void {
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

  isConfigured(name: string): boolean {
    return this.#adapters.has(name);
  }

  /** Replaces an engine's adapter (tests put a fake vendor behind an official SDK this way). */
  use(adapter: EngineAdapter, concurrency?: number): void {
    this.#unavailable.delete(adapter.name);
    this.#add(adapter, concurrency);
  }

  async ask(name: string, query: EngineQuery): Promise<AskResult> {
    const started = performance.now();
    const adapter = this.#adapters.get(name);
    const limit = this.#limits.get(name);
    if (adapter === undefined || limit === undefined) {
      return { outcome: failure(this.#unavailable.get(name) ?? `unknown engine ${name}`), attempts: 0, latencyMs: 0 };
    }
    return limit.run(async () => {
      let attempts = 0;
      for (;;) {
        attempts++;
        const outcome = await adapter.ask(query, AbortSignal.timeout(this.#config.timeoutMs));
        if (outcome.ok || !outcome.error.retryable || attempts > this.#config.maxRetries) {
          return { outcome, attempts, latencyMs: Math.round(performance.now() - started) };
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
    });
  }
}
