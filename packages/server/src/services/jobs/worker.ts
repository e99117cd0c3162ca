import { hostname } from "node:os";
import { randomBase62 } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { jobsFinished } from "../../lib/metrics.ts";
import type { Redactor } from "../../lib/redact.ts";
import { inSpan, SpanKind } from "../../lib/tracing.ts";
import {
  claimJobs,
  completeJob,
  completeJobs,
  deadJob,
  extendLeases,
  type JobStoreDeps,
  nextLeaseExpiry,
  reclaimPredecessors,
  releaseJob,
  retryJob,
} from "./store.ts";
import { type BatchJobHandler, type ClaimedJob, defaultBackoffMs, type JobHandler, type JobOutcome } from "./types.ts";

export interface WorkerOptions {
  /** Jobs run at once by this worker. */
  concurrency: number;
  /** How long a claim lasts without a heartbeat; a crashed worker's jobs are taken again after it. */
  leaseMs: number;
  /** How often to look for due jobs when nothing woke the worker (other processes, retries coming due). */
  pollIntervalMs: number;
}

/**
 * Short leases renewed by a heartbeat (a quarter of the lease): a worker that dies without a word
 * loses its jobs within the lease, and the next claim (the poll interval) takes them, so a dead
 * worker's jobs run again within 10 s. A live worker's event loop would have to stall for the
 * whole lease to lose one.
 */
const DEFAULT_LEASE_MS = 6_000;

const DEFAULT_WORKER_OPTIONS: WorkerOptions = { concurrency: 8, leaseMs: DEFAULT_LEASE_MS, pollIntervalMs: 1_000 };

/** The workers of this process, by id: a job locked under this pid by any other id is a predecessor's. */
const LIVE_WORKERS = new Set<string>();

/** Whether a worker of this host, by its pid, is dead: its process is gone, or it is this pid under an id of no live worker. */
function isPredecessor(pid: number, workerId: string): boolean {
  if (pid === process.pid) return !LIVE_WORKERS.has(workerId);
  try {
    process.kill(pid, 0);
    return false; // a process runs under that pid (another worker on this host, or an unrelated reuse)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Claims jobs with a lease, runs them with bounded concurrency, keeps their leases alive while
 * they run, and records each outcome. `stop()` stops claiming, waits for running jobs up to a
 * deadline, and releases those still running so that another worker takes them at once.
 */
export class Worker {
  readonly host = hostname();
  readonly id = `${this.host}:${process.pid}:${randomBase62(6)}`;
  readonly #deps: JobStoreDeps & { logger: Logger; redactor: Redactor };
  readonly #handlers: Record<string, JobHandler>;
  readonly #batches: Record<string, BatchJobHandler>;
  readonly #options: WorkerOptions;
  /** What runs now, by unit: one job (keyed by its id) or a batch (keyed by its first job's id). */
  readonly #running = new Map<string, { jobs: string[]; kind: string; done: Promise<void> }>();
  /** Jobs handed back at shutdown: their late outcome must not be recorded. */
  readonly #released = new Set<string>();
  #stopping = false;
  #loop: Promise<void> | undefined;

  constructor(
    deps: JobStoreDeps & { logger: Logger; redactor: Redactor },
    handlers: Record<string, JobHandler | BatchJobHandler>,
    options: Partial<WorkerOptions> = {},
  ) {
    this.#deps = deps;
    this.#handlers = {};
    this.#batches = {};
    for (const [kind, handler] of Object.entries(handlers)) {
      if (typeof handler === "function") this.#handlers[kind] = handler;
      else this.#batches[kind] = handler;
    }
    this.#options = { ...DEFAULT_WORKER_OPTIONS, ...options };
  }

  start(): void {
    LIVE_WORKERS.add(this.id);
    this.#loop ??= this.#run();
  }

  async #run(): Promise<void> {
    const batchKinds = Object.keys(this.#batches);
    // A restarted process takes its dead predecessor's jobs at once, not when their leases run out.
    try {
      const reclaimed = await reclaimPredecessors(this.#deps, this.host, isPredecessor);
      if (reclaimed > 0)
        this.#deps.logger.warn({ jobs: reclaimed }, "took back the jobs of a dead worker on this host");
    } catch (error) {
      this.#deps.logger.error({ err: error }, "could not look for a dead predecessor's jobs");
    }
    while (!this.#stopping) {
      try {
        for (const kind of batchKinds) await this.#claimBatches(kind);
        const free = this.#options.concurrency - this.#singles();
        if (free > 0) {
          const claimed = await claimJobs(this.#deps, this.id, free, this.#options.leaseMs, { except: batchKinds });
          for (const job of claimed) this.#start([job], job.kind, () => this.#runOne(job));
        }
      } catch (error) {
        this.#deps.logger.error({ err: error }, "could not claim jobs; retrying");
      }
      // Either every due job is taken or every slot is busy: sleep until an enqueue, a finished
      // job, a lease running out (a dead worker's job coming due) or the poll interval wakes the
      // loop (a wake during the claim is not lost).
      await this.#deps.jobSignal.wait(await this.#pause());
    }
  }

  /** Until the next poll, or until just after the next lease runs out when that is sooner and a slot is free. */
  async #pause(): Promise<number> {
    const poll = this.#options.pollIntervalMs;
    if (this.#stopping || this.#singles() >= this.#options.concurrency) return poll;
    try {
      const next = await nextLeaseExpiry(this.#deps);
      if (next === null) return poll;
      return Math.min(poll, Math.max(10, next - this.#deps.clock.now().getTime() + 20));
    } catch {
      return poll; // the claim's own error is logged; the next round tries again
    }
  }

  #singles(): number {
    let count = 0;
    for (const unit of this.#running.values()) if (this.#batches[unit.kind] === undefined) count++;
    return count;
  }

  async #claimBatches(kind: string): Promise<void> {
    const handler = this.#batches[kind];
    if (handler === undefined) return;
    let inFlight = 0;
    for (const unit of this.#running.values()) if (unit.kind === kind) inFlight++;
    while (inFlight < handler.inFlight && !this.#stopping) {
      const jobs = await claimJobs(this.#deps, this.id, handler.size, this.#options.leaseMs, { only: [kind] });
      if (jobs.length === 0) return;
      this.#start(jobs, kind, () => this.#runBatch(handler, jobs));
      inFlight++;
      if (jobs.length < handler.size) return;
    }
  }

  #start(jobs: ClaimedJob[], kind: string, run: () => Promise<JobOutcome[]>): void {
    const key = jobs[0]?.id ?? "";
    const ids = jobs.map((job) => job.id);
    const heartbeat = setInterval(
      () => {
        extendLeases(this.#deps, ids, this.id, this.#options.leaseMs).catch((error: unknown) =>
          this.#deps.logger.warn({ err: error, jobs: ids.length, job: key }, "could not extend a job's lease"),
        );
      },
      Math.max(100, Math.floor(this.#options.leaseMs / 4)),
    );
    heartbeat.unref();
    const traced = () =>
      inSpan(
        `job ${kind}`,
        { "sightline.job.kind": kind, "sightline.job.id": key, "sightline.job.count": ids.length },
        async (span) => {
          const outcomes = await run();
          span.setAttribute("sightline.job.outcomes", outcomes.map((outcome) => outcome.status).join(","));
          return outcomes;
        },
        SpanKind.CONSUMER,
      );
    const done = traced()
      .finally(() => clearInterval(heartbeat))
      .then((outcomes) => this.#record(jobs, outcomes))
      .catch((error: unknown) => {
        // The lease will expire and another attempt will follow: at-least-once.
        this.#deps.logger.error({ err: error, job: key }, "could not record a job's outcome");
      })
      .finally(() => {
        this.#running.delete(key);
        this.#deps.jobSignal.wake(); // a slot is free
      });
    this.#running.set(key, { jobs: ids, kind, done });
  }

  async #runOne(job: ClaimedJob): Promise<JobOutcome[]> {
    const handler = this.#handlers[job.kind];
    if (handler === undefined) return [{ status: "dead", error: `no handler for job kind '${job.kind}'` }];
    try {
      return [await handler(job)];
    } catch (error) {
      return [this.#thrown(job, error)];
    }
  }

  async #runBatch(handler: BatchJobHandler, jobs: ClaimedJob[]): Promise<JobOutcome[]> {
    try {
      const outcomes = await handler.run(jobs);
      if (outcomes.length !== jobs.length)
        throw new Error(`a batch of ${jobs.length} gave ${outcomes.length} outcomes`);
      return outcomes;
    } catch (error) {
      return jobs.map((job) => this.#thrown(job, error));
    }
  }

  #thrown(job: ClaimedJob, error: unknown): JobOutcome {
    this.#deps.logger.warn({ err: error, job: job.id, kind: job.kind, attempt: job.attempt }, "job failed");
    return {
      status: "retry",
      delayMs: defaultBackoffMs(job.attempt),
      error: this.#deps.redactor.scrub(errorText(error)),
    };
  }

  async #record(jobs: ClaimedJob[], outcomes: JobOutcome[]): Promise<void> {
    const succeeded: ClaimedJob[] = [];
    for (const [index, job] of jobs.entries()) {
      const outcome = outcomes[index];
      if (outcome === undefined || this.#released.has(job.id)) continue;
      jobsFinished.inc({ kind: job.kind, outcome: outcome.status });
      if (outcome.status === "succeeded") {
        succeeded.push(job);
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
    }
    if (succeeded.length === 1 && succeeded[0] !== undefined) {
      if (!(await completeJob(this.#deps, succeeded[0].id, this.id))) this.#lost(succeeded[0]);
    } else if (succeeded.length > 1) {
      const lost = new Set(
        await completeJobs(
          this.#deps,
          succeeded.map((job) => job.id),
          this.id,
        ),
      );
      for (const job of succeeded) if (lost.has(job.id)) this.#lost(job);
    }
  }

  #lost(job: ClaimedJob): void {
    jobsFinished.inc({ kind: job.kind, outcome: "lost" });
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
    const units = [...this.#running.values()];
    const finished = await Promise.race([
      Promise.all(units.map((unit) => unit.done)).then(() => "done" as const),
      deadline,
    ]);
    if (finished === "timeout") {
      for (const jobId of [...this.#running.values()].flatMap((unit) => unit.jobs)) {
        this.#released.add(jobId);
        await releaseJob(this.#deps, jobId, this.id).catch((error: unknown) =>
          this.#deps.logger.error({ err: error, job: jobId }, "could not release a job"),
        );
      }
      this.#deps.logger.warn({ released: this.#released.size }, "released unfinished jobs to other workers");
    }
    LIVE_WORKERS.delete(this.id);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
