import type OpenAI from "openai";
import type { SourceCitation } from "../../measurement/types.ts";
import { toFailure } from "../errors.ts";
import { type EngineAdapter, type EngineOutcome, type EngineQuery, type EngineReach, failure } from "../types.ts";
import { reportedCost, reportedCount, usageOf } from "../usage.ts";
import { vendorFetch } from "../vendor-fetch.ts";

/** Fields some OpenAI-compatible vendors add to a chat completion. */
interface VendorExtras {
  /** Perplexity: the URLs the answer cites, in the order of its [n] markers. */
  citations?: unknown;
  /** Perplexity: the search results behind the answer. */
  search_results?: unknown;
}

/** Usage fields some vendors add: Perplexity prices the call itself, xAI counts the sources it searched. */
interface UsageExtras {
  cost?: { total_cost?: unknown } | null;
  num_search_queries?: unknown;
}

function sources(extras: VendorExtras): SourceCitation[] {
  const out: SourceCitation[] = [];
  if (Array.isArray(extras.search_results)) {
    for (const result of extras.search_results as { url?: unknown; title?: unknown }[]) {
      if (typeof result?.url === "string")
        out.push({ url: result.url, title: typeof result.title === "string" ? result.title : null });
    }
  }
  if (Array.isArray(extras.citations)) {
    for (const url of extras.citations) {
      if (typeof url === "string" && !out.some((s) => s.url === url)) out.push({ url, title: null });
    }
  }
  return out;
}

export interface ChatCompletionsSettings {
  name: string;
  apiKey: string;
  baseUrl: string;
  model: string;
  /** How requests are sent: `vendorFetch` unless the address must be held to outbound rules. */
  fetch?: typeof fetch;
  /** Whether the vendor takes the asker's country in `web_search_options.user_location` (Perplexity does). */
  userLocation?: boolean;
}

/**
 * Any OpenAI-compatible chat API: `perplexity` (Sonar: `citations` and `search_results`),
 * `deepseek`, and the operator's own endpoints (Ollama, vLLM, llama.cpp). Sources the vendor does
 * not return are found later as links in the text.
 */
export class ChatCompletionsAdapter implements EngineAdapter {
  readonly name: string;
  readonly #settings: ChatCompletionsSettings;
  readonly #timeoutMs: number;
  #client: Promise<OpenAI> | null = null;
  readonly #model: string;
  readonly reach: EngineReach;

  constructor(settings: ChatCompletionsSettings, timeoutMs: number) {
    this.name = settings.name;
    this.reach = {
      persona: "system",
      country: settings.userLocation === true ? "web_search_options.user_location.country" : null,
      conversation: "history",
    };
    this.#settings = settings;
    this.#timeoutMs = timeoutMs;
    this.#model = settings.model;
  }

  /** The OpenAI SDK, loaded and its client made on first use: start-up loads no vendor SDK (issue 16). */
  #api(): Promise<OpenAI> {
    this.#client ??= import("openai").then(
      ({ default: OpenAI }) =>
        new OpenAI({
          apiKey: this.#settings.apiKey,
          baseURL: this.#settings.baseUrl,
          timeout: this.#timeoutMs,
          maxRetries: 0,
          fetch: this.#settings.fetch ?? vendorFetch,
        }),
    );
    return this.#client;
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    const settings = this.#settings;
    let completion: OpenAI.Chat.Completions.ChatCompletion & VendorExtras;
    try {
      const params = {
        model: this.#model,
        messages: [
          ...(query.persona === null || query.persona === undefined || query.persona === ""
            ? []
            : [{ role: "system" as const, content: query.persona }]),
          ...(query.history ?? []).flatMap((turn) => [
            { role: "user" as const, content: turn.prompt },
            { role: "assistant" as const, content: turn.answer },
          ]),
          { role: "user" as const, content: query.prompt },
        ],
        // Perplexity's own parameter, beside OpenAI's: where the asker is.
        ...(settings.userLocation === true && query.country !== null
          ? { web_search_options: { user_location: { country: query.country } } }
          : {}),
      } as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
      completion = await (await this.#api()).chat.completions.create(params, { signal });
    } catch (error) {
      return toFailure(this.name, error, signal.aborted);
    }
    const text = completion?.choices?.[0]?.message?.content;
    if (typeof text !== "string" || text === "") return failure(`${this.name} answered with no text`);
    // No chat completions vendor reports the searches it ran (Perplexity gives only their results).
    const usage = completion.usage as (OpenAI.CompletionUsage & UsageExtras) | undefined;
    return {
      ok: true,
      answer: {
        text,
        model: completion.model ?? this.#model,
        citations: sources(completion),
        searches: [],
        usage: usageOf({
          inputTokens: reportedCount(usage?.prompt_tokens),
          outputTokens: reportedCount(usage?.completion_tokens),
          searchCalls: reportedCount(usage?.num_search_queries) ?? 0,
          costUsd: reportedCost(usage?.cost?.total_cost),
        }),
      },
    };
  }
}
