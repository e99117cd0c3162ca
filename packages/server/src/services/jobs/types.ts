export interface JobSpec {
  kind: string;
  payload: Record<string, unknown>;
  /** When it may run first; now by default. */
  runAt?: Date;
  /** Attempts before the job is dead-lettered; 10 by default. */
  maxAttempts?: number;
}

export interface ClaimedJob {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number;
  createdAt: string;
}

/**
 * What a handler says of its attempt. Expected failures are values, not exceptions: `retry` asks
 * for another attempt after `delayMs` (dead-lettered if this was the last), `dead` gives up now.
 * A handler that throws is retried with exponential backoff.
 */
export type JobOutcome =
  | { status: "succeeded" }
  | { status: "retry"; delayMs: number; error: string }
  | { status: "dead"; error: string };

export type JobHandler = (job: ClaimedJob) => Promise<JobOutcome>;

/**
 * Runs claimed jobs of one kind together, to share their reads and writes: up to `size` jobs per
 * batch, up to `inFlight` batches at once (their own budget, apart from the worker's concurrency).
 * `run` gives one outcome per job, in the jobs' order; throwing retries the whole batch.
 */
export interface BatchJobHandler {
  size: number;
  inFlight: number;
  run(jobs: ClaimedJob[]): Promise<JobOutcome[]>;
}

export const DEFAULT_MAX_ATTEMPTS = 10;

/** 1 s, 2 s, 4 s … capped at one hour, with ±20% jitter. */
export function defaultBackoffMs(attempt: number): number {
  const base = Math.min(3_600_000, 1_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
