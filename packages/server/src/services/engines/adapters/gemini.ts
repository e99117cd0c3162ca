import type { GenerateContentResponse, GoogleGenAI } from "@google/genai";
import type { SourceCitation } from "../../measurement/types.ts";
import { countryPoint } from "../country-points.ts";
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

/** Batch job states before the job ends (then: succeeded, failed, cancelled or expired). */
const RUNNING = new Set([
  "JOB_STATE_UNSPECIFIED",
  "JOB_STATE_QUEUED",
  "JOB_STATE_PENDING",
  "JOB_STATE_RUNNING",
  "JOB_STATE_CANCELLING",
  "JOB_STATE_UPDATING",
  "JOB_STATE_PAUSED",
]);

import { sumOfCounts, usageOf } from "../usage.ts";

/**
 * `gemini`: the Gemini API grounded with Google Search; sources are the grounding chunks (redirect
 * URLs whose title is the source's domain, which the measurement uses as the domain).
 */
export class GeminiAdapter implements EngineAdapter {
  readonly name = "gemini";
  readonly reach: EngineReach = {
    persona: "system",
    country: "toolConfig.retrievalConfig.latLng",
    placesIn: (country) => countryPoint(country) !== null,
    conversation: "history",
  };
  readonly #settings: CredentialedSettings;
  readonly #timeoutMs: number;
  #client: Promise<GoogleGenAI> | null = null;
  readonly #model: string;

  constructor(settings: CredentialedSettings, timeoutMs: number) {
    this.#settings = settings;
    this.#timeoutMs = timeoutMs;
    this.#model = settings.model;
  }

  /** Google's SDK, loaded and its client made on first use: start-up loads no vendor SDK (issue 16). */
  #api(): Promise<GoogleGenAI> {
    this.#client ??= import("@google/genai").then(
      ({ GoogleGenAI }) =>
        new GoogleGenAI({
          apiKey: this.#settings.apiKey,
          httpOptions: {
            ...(this.#settings.baseUrl === null ? {} : { baseUrl: this.#settings.baseUrl }),
            timeout: this.#timeoutMs,
            retryOptions: { attempts: 1 }, // the registry retries, the same way for every engine
          },
        }),
    );
    return this.#client;
  }

  /** The conversation as Gemini takes it: `contents` alternating `user` and `model`, ending with the question. */
  #request(query: EngineQuery): { contents: string | { role: string; parts: { text: string }[] }[] } {
    const history = query.history ?? [];
    if (history.length === 0) return { contents: query.prompt };
    return {
      contents: [
        ...history.flatMap((turn) => [
          { role: "user", parts: [{ text: turn.prompt }] },
          { role: "model", parts: [{ text: turn.answer }] },
        ]),
        { role: "user", parts: [{ text: query.prompt }] },
      ],
    };
  }

  /**
   * Search grounding, a persona as the system instruction, and a country as a point in it
   * (`retrievalConfig.latLng`, the only placement the API takes; the registry refuses a country
   * with no known point before asking).
   */
  #config(query: EngineQuery) {
    const point = query.country === null ? null : countryPoint(query.country);
    return {
      tools: [{ googleSearch: {} }],
      ...(query.persona === null || query.persona === undefined || query.persona === ""
        ? {}
        : { systemInstruction: query.persona }),
      ...(point === null ? {} : { toolConfig: { retrievalConfig: { latLng: point } } }),
    };
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    let response: GenerateContentResponse;
    try {
      response = await (await this.#api()).models.generateContent({
        model: this.#model,
        ...this.#request(query),
        config: { ...this.#config(query), abortSignal: signal },
      });
    } catch (error) {
      const outcome = toFailure(this.name, error, signal.aborted);
      // The Gemini SDK exposes no response headers; the wait is in the error body's RetryInfo.
      const delay = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(String((error as Error)?.message ?? ""));
      if (!outcome.ok && outcome.error.retryAfter === null && delay?.[1] !== undefined) {
        outcome.error.retryAfter = Number(delay[1]);
      }
      return outcome;
    }
    return this.#read(response);
  }

  /** Gemini's batch mode: the requests inlined in one batch job, their answers inlined in it once it succeeded. */
  readonly batch: EngineBatchApi = {
    submit: async (requests: BatchRequest[], signal: AbortSignal) => {
      const job = await (await this.#api()).batches.create({
        model: this.#model,
        src: requests.map((request) => ({
          ...this.#request(request.query),
          config: this.#config(request.query),
          metadata: { key: request.id },
        })),
        config: { displayName: "sightline", abortSignal: signal },
      });
      if (typeof job?.name !== "string") throw new Error(`${this.name} created a batch without a name`);
      return job.name;
    },
    poll: async (batchId: string, signal: AbortSignal): Promise<BatchPoll> => {
      const job = await (await this.#api()).batches.get({ name: batchId, config: { abortSignal: signal } });
      if (job.state === undefined || RUNNING.has(job.state)) return { done: false };
      const outcomes = new Map<string, EngineOutcome>();
      for (const entry of job.dest?.inlinedResponses ?? []) {
        const key = entry.metadata?.key;
        if (typeof key !== "string") continue;
        outcomes.set(
          key,
          entry.response === undefined
            ? failure(`${this.name} batch request failed: ${entry.error?.message ?? "no message"}`, {
                status: entry.error?.code ?? null,
              })
            : this.#read(entry.response),
        );
      }
      return {
        done: true,
        outcomes,
        reason:
          job.state === "JOB_STATE_SUCCEEDED"
            ? null
            : `the batch ended ${job.state.replace("JOB_STATE_", "").toLowerCase()}`,
      };
    },
  };

  /** A generateContent answer read as an outcome: what a live request and a batch response both return. */
  #read(response: GenerateContentResponse | null | undefined): EngineOutcome {
    const candidate = response?.candidates?.[0];
    const text = (candidate?.content?.parts ?? [])
      .map((part) => (part.thought === true ? "" : (part.text ?? "")))
      .join("");
    if (candidate === undefined || text === "") {
      return failure(`${this.name} answered with no text (finish reason ${candidate?.finishReason ?? "none"})`);
    }
    const citations: SourceCitation[] = [];
    for (const chunk of candidate.groundingMetadata?.groundingChunks ?? []) {
      if (chunk.web?.uri !== undefined) citations.push({ url: chunk.web.uri, title: chunk.web.title ?? null });
    }
    const queries = candidate.groundingMetadata?.webSearchQueries;
    const searches = cleanSearches(Array.isArray(queries) ? queries : []);
    // Thinking tokens and the search results the model read are billed as output and input.
    const meta = response?.usageMetadata;
    const usage = usageOf({
      inputTokens: sumOfCounts(meta?.promptTokenCount, meta?.toolUsePromptTokenCount),
      outputTokens: sumOfCounts(meta?.candidatesTokenCount, meta?.thoughtsTokenCount),
      searchCalls: Array.isArray(queries) ? queries.length : 0,
    });
    return { ok: true, answer: { text, model: response?.modelVersion ?? this.#model, citations, searches, usage } };
  }
}
