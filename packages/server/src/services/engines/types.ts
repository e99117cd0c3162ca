import type { BrandSpec, SourceCitation } from "../measurement/types.ts";

/** What is asked: the prompt as a user would type it, never which brand is being measured. */
export interface EngineQuery {
  prompt: string;
  country: string | null;
  language: string | null;
  /** Which repetition of the same prompt this is (from 1): engines answer the same prompt differently. */
  sample: number;
  /** Fixes the sandbox's randomness; real engines ignore it. */
  seed: string;
  /**
   * The market the offline sandbox simulates answers about. Real adapters never send it: it exists
   * only because a simulated engine has no other way to know which brands exist.
   */
  simulation?: { brand: BrandSpec; competitors: BrandSpec[] };
}

/**
 * What one answer used, as its vendor's response reports it (ADR 0029): what it is billed for.
 * Token counts are null when the vendor reports none (SERP and scraping providers bill per request).
 */
export interface AnswerUsage {
  inputTokens: number | null;
  /** Output tokens, reasoning tokens included (vendors bill them as output). */
  outputTokens: number | null;
  /**
   * Billable search calls: the model's web-search tool calls or grounded queries, or the SERP
   * provider's searches. Zero when none was run or the vendor does not report them.
   */
  searchCalls: number;
  /** What the vendor itself says the call cost, in USD (Perplexity, DataForSEO); null when it does not say. */
  costUsd: number | null;
}

interface EngineAnswer {
  text: string;
  /** The model that answered, as the vendor reports it. */
  model: string;
  /** The engine's structured sources (empty when it has none: links in the text are found later). */
  citations: SourceCitation[];
  /**
   * The web searches the engine ran while answering, from its structured output (query fan-out),
   * cleaned by `cleanSearches`: empty when the vendor reports none.
   */
  searches: string[];
  usage: AnswerUsage;
}

/** A failure as a value: whether trying again may help, and what the vendor said. */
export interface EngineError {
  code: "ENGINE_FAILURE";
  message: string;
  retryable: boolean;
  status: number | null;
  /** Seconds the vendor asked us to wait, when it did. */
  retryAfter: number | null;
}

export type EngineOutcome = { ok: true; answer: EngineAnswer } | { ok: false; error: EngineError };

/** One answer asked in a vendor's batch: `id` is ours, 1 to 64 of `A-Z a-z 0-9 _ -` (every vendor accepts those). */
export interface BatchRequest {
  id: string;
  query: EngineQuery;
}

/**
 * A vendor batch's state: still running, or ended with the outcome of each request it answered
 * (a request it did not answer, in a batch that expired or failed, is missing; `reason` says why).
 */
export type BatchPoll = { done: false } | { done: true; outcomes: Map<string, EngineOutcome>; reason: string | null };

/**
 * A vendor's batch API (ADR 0030): many answers submitted at once, answered within the vendor's
 * window (24 hours) at about half the price. Both calls throw when the vendor cannot be reached or
 * refuses; the caller decides what follows.
 */
export interface EngineBatchApi {
  /** Submits the requests as one batch; returns the vendor's batch id. */
  submit(requests: BatchRequest[], signal: AbortSignal): Promise<string>;
  poll(batchId: string, signal: AbortSignal): Promise<BatchPoll>;
}

/** One adapter per vendor: one attempt, no retries (the registry retries), bounded by `signal`. */
export interface EngineAdapter {
  readonly name: string;
  ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome>;
  /** The vendor's batch API, for the engines that have one (chatgpt, claude, gemini). */
  readonly batch?: EngineBatchApi;
}

export function failure(message: string, options: Partial<Omit<EngineError, "code" | "message">> = {}): EngineOutcome {
  return {
    ok: false,
    error: {
      code: "ENGINE_FAILURE",
      message,
      retryable: options.retryable ?? false,
      status: options.status ?? null,
      retryAfter: options.retryAfter ?? null,
    },
  };
}
