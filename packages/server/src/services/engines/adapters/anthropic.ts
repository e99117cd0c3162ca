import type Anthropic from "@anthropic-ai/sdk";
import type { SourceCitation } from "../../measurement/types.ts";
import type { CredentialedSettings } from "../descriptor.ts";
import { toFailure } from "../errors.ts";
import { cleanSearches } from "../searches.ts";
import {
  type BatchPoll,
  type BatchRequest,
  type EngineAdapter,
  type EngineBatchApi,
  type EngineOutcome,
  type EngineQuery,
  type EngineReach,
  failure,
} from "../types.ts";
import { reportedCount, sumOfCounts, usageOf } from "../usage.ts";
import { vendorFetch } from "../vendor-fetch.ts";

/** `claude`: Anthropic's Messages API with the web search tool; sources are its text blocks' citations. */
export class AnthropicAdapter implements EngineAdapter {
  readonly name = "claude";
  readonly reach: EngineReach = {
    persona: "system",
    country: "tools[web_search].user_location.country",
    conversation: "history",
  };
  readonly #settings: CredentialedSettings;
  readonly #timeoutMs: number;
  #client: Promise<Anthropic> | null = null;
  readonly #model: string;

  constructor(settings: CredentialedSettings, timeoutMs: number) {
    this.#settings = settings;
    this.#timeoutMs = timeoutMs;
    this.#model = settings.model;
  }

  /** Anthropic's SDK, loaded and its client made on first use: start-up loads no vendor SDK (issue 16). */
  #api(): Promise<Anthropic> {
    this.#client ??= import("@anthropic-ai/sdk").then(
      ({ default: Anthropic }) =>
        new Anthropic({
          apiKey: this.#settings.apiKey,
          ...(this.#settings.baseUrl === null ? {} : { baseURL: this.#settings.baseUrl }),
          timeout: this.#timeoutMs,
          maxRetries: 0,
          fetch: vendorFetch,
        }),
    );
    return this.#client;
  }

  /** The request's parameters, for a live request and a batch request alike. */
  #params(query: EngineQuery): Anthropic.MessageCreateParamsNonStreaming {
    return {
      model: this.#model,
      max_tokens: 2_048,
      // A follow-up sends the conversation back, alternating user and assistant, ending with the question.
      messages: [
        ...(query.history ?? []).flatMap((turn) => [
          { role: "user" as const, content: turn.prompt },
          { role: "assistant" as const, content: turn.answer },
        ]),
        { role: "user", content: query.prompt },
      ],
      ...(query.persona === null || query.persona === undefined || query.persona === ""
        ? {}
        : { system: query.persona }),
      tools: [
        {
          type: "web_search_20250305",
          name: "web_search",
          max_uses: 5,
          ...(query.country === null
            ? {}
            : { user_location: { type: "approximate" as const, country: query.country } }),
        },
      ],
    };
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    let message: Anthropic.Message;
    try {
      message = await (await this.#api()).messages.create(this.#params(query), { signal });
    } catch (error) {
      return toFailure(this.name, error, signal.aborted);
    }
    return this.#read(message);
  }

  /** Anthropic's Message Batches: one request per answer, results as JSONL once the batch has ended. */
  readonly batch: EngineBatchApi = {
    submit: async (requests: BatchRequest[], signal: AbortSignal) => {
      const batch = await (await this.#api()).messages.batches.create(
        { requests: requests.map((request) => ({ custom_id: request.id, params: this.#params(request.query) })) },
        { signal },
      );
      return batch.id;
    },
    poll: async (batchId: string, signal: AbortSignal): Promise<BatchPoll> => {
      const batch = await (await this.#api()).messages.batches.retrieve(batchId, {}, { signal });
      if (batch.processing_status !== "ended") return { done: false };
      const outcomes = new Map<string, EngineOutcome>();
      for await (const entry of await (await this.#api()).messages.batches.results(batchId, {}, { signal })) {
        const result = entry.result;
        outcomes.set(
          entry.custom_id,
          result.type === "succeeded"
            ? this.#read(result.message)
            : result.type === "errored"
              ? failure(`${this.name} batch request failed: ${result.error?.error?.message ?? "no message"}`)
              : failure(`${this.name} batch request ${result.type}`),
        );
      }
      return { done: true, outcomes, reason: null };
    },
  };

  /** A Messages API answer read as an outcome: what a live request and a batch result both return. */
  #read(message: Anthropic.Message | null | undefined): EngineOutcome {
    if (!Array.isArray(message?.content)) return failure(`${this.name} answered without content`);
    const text: string[] = [];
    const citations: SourceCitation[] = [];
    const searches: unknown[] = [];
    for (const block of message.content) {
      if (block?.type === "server_tool_use" && block.name === "web_search") {
        searches.push((block.input as { query?: unknown } | null)?.query);
        continue;
      }
      if (block?.type !== "text") continue;
      text.push(block.text);
      for (const citation of block.citations ?? []) {
        if (citation.type === "web_search_result_location")
          citations.push({ url: citation.url, title: citation.title ?? null });
      }
    }
    if (text.length === 0)
      return failure(`${this.name} answered with no text (stop reason ${message.stop_reason ?? "unknown"})`);
    // Text blocks split around citations; joined without separators they read as written.
    return {
      ok: true,
      answer: {
        text: text.join(""),
        model: message.model ?? this.#model,
        citations,
        searches: cleanSearches(searches),
        // Cache writes and reads are input too, billed at their own rates: counted as input here.
        usage: usageOf({
          inputTokens: sumOfCounts(
            message.usage?.input_tokens,
            message.usage?.cache_creation_input_tokens,
            message.usage?.cache_read_input_tokens,
          ),
          outputTokens: reportedCount(message.usage?.output_tokens),
          searchCalls: reportedCount(message.usage?.server_tool_use?.web_search_requests) ?? 0,
        }),
      },
    };
  }
}
