import { hostname } from "node:os";
import { randomBase62 } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Redactor } from "../../lib/redact.ts";
import { claimJobs, completeJob, deadJob, extendLease, type JobStoreDeps, releaseJob, retryJob } from "./store.ts";
import { type ClaimedJob, defaultBackoffMs, type JobHandler, type JobOutcome } from "./types.ts";

export interface WorkerOptions {
  /** Jobs run at once by this worker. */
  concurrency: number;
  /** How long a claim lasts without a heartbeat; a crashed worker's jobs are taken again after it. */
  leaseMs: number;
  /** How often to look for due jobs when nothing woke the worker (other processes, retries coming due). */
  pollIntervalMs: number;
}

const DEFAULT_WORKER_OPTIONS: WorkerOptions = { concurrency: 8, leaseMs: 60_000, pollIntervalMs: 1_000 };

/**
 * Claims jobs with a lease, runs them with bounded concurrency, keeps their leases alive while
 * they run, and records each outcome. `stop()` stops claiming, waits for running jobs up to a
 * deadline, and releases those still running so that another worker takes them at once.
 */
export class Worker {
  readonly id = `${hostname()}:${process.pid}:${randomBase62(6)}`;
  readonly #deps: JobStoreDeps & { logger: Logger; redactor: Redactor };
  readonly #handlers: Record<string, JobHandler>;
  readonly #options: WorkerOptions;
  readonly #running = new Map<string, Promise<void>>();
  /** Jobs handed back at shutdown: their late outcome must not be recorded. */
  readonly #released = new Set<string>();
  #stopping = false;
  #loop: Promise<void> | undefined;

  constructor(
    deps: JobStoreDeps & { logger: Logger; redactor: Redactor },
    handlers: Record<string, JobHandler>,
    options: Partial<WorkerOptions> = {},
  ) {
    this.#deps = deps;
    this.#handlers = handlers;
    this.#options = { ...DEFAULT_WORKER_OPTIONS, ...options };
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      const free = this.#options.concurrency - this.#running.size;
      let claimed: ClaimedJob[] = [];
      if (free > 0) {
        try {
          claimed = await claimJobs(this.#deps, this.id, free, this.#options.leaseMs);
        } catch (error) {
          this.#deps.logger.error({ err: error }, "could not claim jobs; retrying");
        }
        for (const job of claimed) this.#start(job);
      }
      // Either every due job is taken or every slot is busy: sleep until an enqueue, a finished
      // job or the poll interval wakes the loop (a wake during the claim is not lost).
      await this.#deps.jobSignal.wait(this.#options.pollIntervalMs);
    }
  }

  #start(job: ClaimedJob): void {
    const run = this.#execute(job).finally(() => {
      this.#running.delete(job.id);
      this.#deps.jobSignal.wake(); // a slot is free
    });
    this.#running.set(job.id, run);
  }

  async #execute(job: ClaimedJob): Promise<void> {
    const heartbeat = setInterval(
      () => {
        extendLease(this.#deps, job.id, this.id, this.#options.leaseMs).catch((error: unknown) =>
          this.#deps.logger.warn({ err: error, job: job.id }, "could not extend a job's lease"),
        );
      },
      Math.max(100, Math.floor(this.#options.leaseMs / 3)),
    );
    heartbeat.unref();
    let outcome: JobOutcome;
    const handler = this.#handlers[job.kind];
    try {
      outcome =
        handler === undefined ? { status: "dead", error: `no handler for job kind '${job.kind}'` } : await handler(job);
    } catch (error) {
      outcome = {
        status: "retry",
        delayMs: defaultBackoffMs(job.attempt),
        error: this.#deps.redactor.scrub(errorText(error)),
      };
      this.#deps.logger.warn({ err: error, job: job.id, kind: job.kind, attempt: job.attempt }, "job failed");
    } finally {
      clearInterval(heartbeat);
    }
    if (this.#released.has(job.id)) return;
    try {
      if (outcome.status === "succeeded") {
        if (!(await completeJob(this.#deps, job.id, this.id))) this.#lost(job);
      } else if (outcome.status === "retry") {
        const result = await retryJob(this.#deps, job, this.id, outcome.delayMs, outcome.error);
        if (result === "lost") this.#lost(job);
        if (result === "dead")
          this.#deps.logger.error(
            { job: job.id, kind: job.kind, error: outcome.error },
            "job dead after its last attempt",
          );
      } else {
        await deadJob(this.#deps, job.id, this.id, outcome.error);
        this.#deps.logger.error({ job: job.id, kind: job.kind, error: outcome.error }, "job dead");
      }
    } catch (error) {
      // The lease will expire and another attempt will follow: at-least-once.
      this.#deps.logger.error({ err: error, job: job.id }, "could not record a job's outcome");
    }
  }

  #lost(job: ClaimedJob): void {
    this.#deps.logger.warn(
      { job: job.id, kind: job.kind },
      "job lease was lost before it finished; another worker took it",
    );
  }

  /** Stops claiming; waits up to `timeoutMs` for running jobs, then releases the rest. */
  async stop(timeoutMs: number): Promise<void> {
    this.#stopping = true;
    this.#deps.jobSignal.wake();
    await this.#loop;
    const deadline = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), timeoutMs).unref());
    const finished = await Promise.race([Promise.all(this.#running.values()).then(() => "done" as const), deadline]);
    if (finished === "timeout") {
      for (const jobId of this.#running.keys()) {
        this.#released.add(jobId);
        await releaseJob(this.#deps, jobId, this.id).catch((error: unknown) =>
          this.#deps.logger.error({ err: error, job: jobId }, "could not release a job"),
        );
      }
      this.#deps.logger.warn({ released: this.#released.size }, "released unfinished jobs to other workers");
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
