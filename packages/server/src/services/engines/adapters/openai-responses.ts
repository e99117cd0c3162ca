import type OpenAI from "openai";
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
import { reportedCount, usageOf } from "../usage.ts";
import { vendorFetch } from "../vendor-fetch.ts";

export interface ResponsesFlavour {
  /** The engine's name: `chatgpt` (OpenAI) or `grok` (xAI, whose API speaks the same protocol). */
  name: string;
  /** Whether the vendor's web search tool takes a `user_location` (OpenAI's does). */
  userLocation: boolean;
  /** Whether the vendor has OpenAI's Batch API (files and batches): OpenAI does. */
  batch?: boolean;
}

/** Batch statuses before the batch ends (then: completed, failed, expired or cancelled). */
const RUNNING = new Set(["validating", "in_progress", "finalizing", "cancelling"]);

/** One line of a batch's output or error file. */
interface BatchOutputLine {
  custom_id?: unknown;
  response?: { status_code?: number; body?: { error?: { message?: string } } } | null;
  error?: { code?: string; message?: string } | null;
}

/**
 * The Responses API with the web search tool: `chatgpt` on OpenAI, `grok` on xAI (its Live Search
 * through chat completions is retired). Sources are the `url_citation` annotations, plus xAI's
 * top-level `citations` list of URLs.
 */
export class OpenAIResponsesAdapter implements EngineAdapter {
  readonly name: string;
  readonly #settings: CredentialedSettings;
  readonly #timeoutMs: number;
  #loaded: Promise<{ client: OpenAI; toFile: typeof import("openai").toFile }> | null = null;
  readonly #model: string;
  readonly #userLocation: boolean;
  readonly batch?: EngineBatchApi;
  readonly reach: EngineReach;

  constructor(
    settings: CredentialedSettings,
    timeoutMs: number,
    flavour: ResponsesFlavour = { name: "chatgpt", userLocation: true },
  ) {
    this.name = flavour.name;
    this.#userLocation = flavour.userLocation;
    this.#settings = settings;
    this.#timeoutMs = timeoutMs;
    this.#model = settings.model;
    this.reach = {
      persona: "instructions",
      country: flavour.userLocation ? "tools[web_search].user_location.country" : null,
      conversation: "state",
    };
    if (flavour.batch === true)
      this.batch = { submit: (r, s) => this.#submit(r, s), poll: (id, s) => this.#poll(id, s) };
  }

  /** The vendor's SDK, loaded and its client made on first use: start-up loads no vendor SDK (issue 16). */
  #api(): Promise<{ client: OpenAI; toFile: typeof import("openai").toFile }> {
    this.#loaded ??= import("openai").then(({ default: OpenAI, toFile }) => ({
      client: new OpenAI({
        apiKey: this.#settings.apiKey,
        ...(this.#settings.baseUrl === null ? {} : { baseURL: this.#settings.baseUrl }),
        timeout: this.#timeoutMs,
        maxRetries: 0, // the registry retries, the same way for every engine
        fetch: vendorFetch,
      }),
      toFile,
    }));
    return this.#loaded;
  }

  /** OpenAI's Batch API: the requests as a JSONL file (`purpose: batch`), then a batch of `/v1/responses` over it. */
  async #submit(requests: BatchRequest[], signal: AbortSignal): Promise<string> {
    const lines = requests.map((request) =>
      JSON.stringify({ custom_id: request.id, method: "POST", url: "/v1/responses", body: this.#body(request.query) }),
    );
    const { client, toFile } = await this.#api();
    const file = await client.files.create(
      { file: await toFile(Buffer.from(`${lines.join("\n")}\n`, "utf8"), "sightline-batch.jsonl"), purpose: "batch" },
      { signal },
    );
    const batch = await client.batches.create(
      {
        input_file_id: file.id,
        endpoint: "/v1/responses",
        completion_window: "24h",
        metadata: { source: "sightline" },
      },
      { signal },
    );
    return batch.id;
  }

  async #poll(batchId: string, signal: AbortSignal): Promise<BatchPoll> {
    const { client } = await this.#api();
    const batch = await client.batches.retrieve(batchId, { signal });
    if (RUNNING.has(batch.status)) return { done: false };
    const outcomes = new Map<string, EngineOutcome>();
    // Answers are in the output file, requests the vendor refused in the error file.
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (fileId === null || fileId === undefined) continue;
      const text = await (await client.files.content(fileId, { signal })).text();
      for (const line of text.split("\n")) {
        if (line.trim() === "") continue;
        const entry = JSON.parse(line) as BatchOutputLine;
        if (typeof entry?.custom_id !== "string") continue;
        const status = entry.response?.status_code;
        outcomes.set(
          entry.custom_id,
          status === 200
            ? this.#read(entry.response?.body as OpenAI.Responses.Response)
            : failure(
                `${this.name} batch request failed${status === undefined ? "" : ` (${status})`}: ${entry.error?.message ?? entry.response?.body?.error?.message ?? "no message"}`,
                { status: status ?? null },
              ),
        );
      }
    }
    return { done: true, outcomes, reason: batch.status === "completed" ? null : `the batch ${batch.status}` };
  }

  /**
   * The request's body, for a live request and a batch line alike. A persona is the developer
   * `instructions` (sent on every turn: the vendor does not carry them over); a follow-up refers
   * to the previous answer by `previous_response_id`, or, when an earlier turn has no id (asked
   * before a retry), sends the whole conversation back as `input`.
   */
  #body(query: EngineQuery): OpenAI.Responses.ResponseCreateParamsNonStreaming {
    const history = query.history ?? [];
    const last = history.at(-1);
    const stateful = last !== undefined && history.every((turn) => turn.responseId !== null);
    const input: OpenAI.Responses.ResponseCreateParamsNonStreaming["input"] =
      history.length === 0 || stateful
        ? query.prompt
        : [
            ...history.flatMap((turn) => [
              { role: "user" as const, content: turn.prompt },
              { role: "assistant" as const, content: turn.answer },
            ]),
            { role: "user" as const, content: query.prompt },
          ];
    return {
      model: this.#model,
      input,
      ...(query.persona === null || query.persona === undefined || query.persona === ""
        ? {}
        : { instructions: query.persona }),
      ...(stateful && last?.responseId != null ? { previous_response_id: last.responseId } : {}),
      tools: [
        {
          type: "web_search",
          ...(query.country === null || !this.#userLocation
            ? {}
            : { user_location: { type: "approximate", country: query.country } }),
        },
      ],
    };
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    let response: OpenAI.Responses.Response;
    try {
      const { client } = await this.#api();
      response = await client.responses.create(this.#body(query), { signal });
    } catch (error) {
      return toFailure(this.name, error, signal.aborted);
    }
    return this.#read(response);
  }

  /** A Responses API answer read as an outcome: what a live request and a batch line both return. */
  #read(response: (OpenAI.Responses.Response & { citations?: unknown }) | null | undefined): EngineOutcome {
    if (!Array.isArray(response?.output)) return failure(`${this.name} answered without output`);
    const texts: string[] = [];
    const citations: SourceCitation[] = [];
    const searches: unknown[] = [];
    let searchCalls = 0;
    for (const item of response.output) {
      if (item?.type === "web_search_call") {
        searchCalls++;
        // `action.queries` is the current field; `action.query` (deprecated) is what older answers carry.
        const action: { type?: unknown; query?: unknown; queries?: unknown } | undefined = item.action;
        if (action?.type === "search") {
          if (Array.isArray(action.queries)) searches.push(...action.queries);
          searches.push(action.query);
        }
        continue;
      }
      if (item?.type !== "message") continue;
      for (const part of item.content) {
        if (part.type !== "output_text") continue;
        texts.push(part.text);
        for (const annotation of part.annotations ?? []) {
          if (annotation.type === "url_citation")
            citations.push({ url: annotation.url, title: annotation.title ?? null });
        }
      }
    }
    if (Array.isArray(response.citations)) {
      for (const url of response.citations) {
        if (typeof url === "string" && !citations.some((c) => c.url === url)) citations.push({ url, title: null });
      }
    }
    if (texts.length === 0)
      return failure(`${this.name} answered with no text (status ${response.status ?? "unknown"})`);
    return {
      ok: true,
      answer: {
        text: texts.join("\n\n"),
        model: response.model ?? this.#model,
        citations,
        searches: cleanSearches(searches),
        usage: usageOf({
          inputTokens: reportedCount(response.usage?.input_tokens),
          outputTokens: reportedCount(response.usage?.output_tokens),
          searchCalls,
        }),
        responseId: typeof response.id === "string" ? response.id : null,
      },
    };
  }
}
