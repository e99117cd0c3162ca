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
  /**
   * Who is asking (a persona, issue 29), as the text the engine receives: in the vendor's system or
   * developer instructions, or as a preamble to the prompt (`EngineReach.persona` says which).
   * Absent or null: nobody in particular, as every answer was asked before personas.
   */
  persona?: string | null;
  /**
   * The conversation so far, oldest turn first, when this prompt is a follow-up (issue 29): sent
   * back as the vendor's history, or as its own conversation state when it has one. Absent or
   * empty: a first question.
   */
  history?: readonly PriorTurn[];
}

/** One turn of a conversation already answered: what was asked, what came back, and the vendor's id for it. */
export interface PriorTurn {
  prompt: string;
  answer: string;
  /** The vendor's id of the answer (OpenAI's response id), when it keeps conversation state; else null. */
  responseId: string | null;
}

/**
 * How an engine can be asked with context (issue 29), said by its adapter: what its vendor's API
 * allows, so that nothing is silently asked in a way it cannot be.
 */
export interface EngineReach {
  /**
   * How a persona reaches it: the vendor's `instructions` (developer message), its `system` prompt,
   * or a `preamble` to the prompt for the surfaces that take only a query.
   */
  persona: "instructions" | "system" | "preamble";
  /**
   * The vendor's parameter a country is sent in (for the docs and the refusal), or null when the
   * engine cannot be asked as from a country: then it is not asked at all.
   */
  country: string | null;
  /** Whether it can be placed in this country, when not in every one (Gemini: where a point is known). */
  placesIn?: (country: string) => boolean;
  /**
   * How it holds a conversation: the vendor's own conversation state (`state`), the history sent
   * back with every turn (`history`), or not at all (`none`: search and scraping surfaces).
   */
  conversation: "state" | "history" | "none";
}

/**
 * Why an engine will not be asked this query, or null: a country it cannot be placed in, or a
 * follow-up on a surface that holds no conversation. Never asked elsewhere or afresh instead.
 */
export function reachRefusal(name: string, reach: EngineReach, query: EngineQuery): string | null {
  if (query.country !== null && (reach.country === null || reach.placesIn?.(query.country) === false)) {
    return reach.country === null
      ? `${name} cannot be asked as from ${query.country}: its API takes no location, so it was not asked`
      : `${name} cannot be asked as from ${query.country}: no location is known for it, so it was not asked`;
  }
  if ((query.history ?? []).length > 0 && reach.conversation === "none") {
    return `${name} cannot hold a conversation (its provider returns single answers), so the follow-up was not asked`;
  }
  return null;
}

/** The preamble a persona becomes on an engine that takes only a prompt. */
export function withPreamble(query: EngineQuery): string {
  const persona = query.persona ?? null;
  return persona === null || persona === "" ? query.prompt : `${persona}\n\n${query.prompt}`;
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
  /** The vendor's id of this answer, for a follow-up to refer to (OpenAI's `previous_response_id`); null when none. */
  responseId?: string | null;
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
  /** How it takes a persona, a country and a conversation (issue 29). */
  readonly reach: EngineReach;
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
