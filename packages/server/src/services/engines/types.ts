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

/** One adapter per vendor: one attempt, no retries (the registry retries), bounded by `signal`. */
export interface EngineAdapter {
  readonly name: string;
  ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome>;
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
