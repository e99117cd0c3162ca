import type { SelectQueryBuilder } from "kysely";
import type { Db } from "../../db/database.ts";
import type { DialectSql } from "../../db/dialect-sql.ts";
import type { JobsTable, Tables } from "../../db/tables.ts";
import { afterCommit } from "../../db/transaction.ts";
import type { Clock } from "../../lib/clock.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import { jobQueueAge, jobsQueued } from "../../lib/metrics.ts";
import { jobColumns } from "./columns.ts";
import type { JobSignal } from "./signal.ts";
import { type ClaimedJob, DEFAULT_MAX_ATTEMPTS, type JobSpec } from "./types.ts";

export interface JobStoreDeps {
  db: Db;
  sql: DialectSql;
  clock: Clock;
  jobSignal: JobSignal;
}

/** Where enqueued jobs are announced to other processes' workers. */
export const JOBS_CHANNEL = "sightline_jobs";

/**
 * Adds a job in the caller's transaction: it exists if and only if the change that caused it
 * commits. Workers of this process wake after the commit; on PostgreSQL, NOTIFY (delivered at
 * commit) wakes the others.
 */
export async function enqueueJob(deps: JobStoreDeps, spec: JobSpec): Promise<string> {
  const now = deps.clock.now().toISOString();
  const id = newId("job");
  await deps.db
    .insertInto("jobs")
    .values({
      id,
      kind: spec.kind,
      payload: toJson(spec.payload),
      status: "pending",
      run_at: (spec.runAt ?? deps.clock.now()).toISOString(),
      attempts: 0,
      max_attempts: spec.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
    })
    .execute();
  await deps.sql.notify(deps.db, JOBS_CHANNEL);
  afterCommit(deps.db, () => deps.jobSignal.wake());
  return id;
}

function toClaimed(row: JobsTable): ClaimedJob {
  return {
    id: row.id,
    kind: row.kind,
    payload: jobColumns.payload.read(row.payload),
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
    createdAt: row.created_at,
  };
}

/**
 * Claims up to `limit` runnable jobs: due pending ones, and running ones whose lease expired
 * (their worker died). PostgreSQL skips rows other workers are claiming (FOR UPDATE SKIP LOCKED);
 * on SQLite the single UPDATE runs under the database write lock. A job whose lease expired on
 * its last attempt is dead-lettered instead.
 */
export async function claimJobs(
  deps: JobStoreDeps,
  workerId: string,
  limit: number,
  leaseMs: number,
  kinds: { only?: string[]; except?: string[] } = {},
): Promise<ClaimedJob[]> {
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  await deps.db
    .updateTable("jobs")
    .set({
      status: "dead",
      last_error: "lease expired during the last attempt",
      finished_at: nowIso,
      updated_at: nowIso,
    })
    .where("status", "=", "running")
    .where("locked_until", "<", nowIso)
    .where((eb) => eb("attempts", ">=", eb.ref("max_attempts")))
    .execute();
  // Two claims, each a range of its own index: jobs whose lease expired (their worker died), then
  // due pending ones in the order they came due. One statement with `a or b` cannot use either
  // index for its order, and sorted every pending job at each claim.
  const expired = await claimWhere(deps, workerId, limit, leaseMs, kinds, (q) =>
    q.where("status", "=", "running").where("locked_until", "<", nowIso).orderBy("locked_until"),
  );
  const pending =
    expired.length >= limit
      ? []
      : await claimWhere(deps, workerId, limit - expired.length, leaseMs, kinds, (q) =>
          q.where("status", "=", "pending").where("run_at", "<=", nowIso).orderBy("run_at"),
        );
  return [...expired, ...pending].map(toClaimed);
}

type CandidateQuery = SelectQueryBuilder<Tables, "jobs", { id: string }>;

async function claimWhere(
  deps: JobStoreDeps,
  workerId: string,
  limit: number,
  leaseMs: number,
  kinds: { only?: string[]; except?: string[] },
  which: (query: CandidateQuery) => CandidateQuery,
): Promise<JobsTable[]> {
  const now = deps.clock.now();
  const candidates = deps.sql.lockRowsSkipLocked(
    which(deps.db.selectFrom("jobs").select("id"))
      .$if(kinds.only !== undefined, (q) => q.where("kind", "in", kinds.only ?? []))
      .$if(kinds.except !== undefined && kinds.except.length > 0, (q) => q.where("kind", "not in", kinds.except ?? []))
      .limit(limit),
  );
  return deps.db
    .updateTable("jobs")
    .set((eb) => ({
      status: "running",
      locked_by: workerId,
      locked_until: new Date(now.getTime() + leaseMs).toISOString(),
      attempts: eb("attempts", "+", 1),
      updated_at: now.toISOString(),
    }))
    .where("id", "in", candidates)
    .returningAll()
    .execute();
}

function owned(deps: JobStoreDeps, jobId: string, workerId: string) {
  return deps.db
    .updateTable("jobs")
    .where("id", "=", jobId)
    .where("locked_by", "=", workerId)
    .where("status", "=", "running");
}

/** @returns false when the lease was lost meanwhile (another worker owns the job now). */
export async function completeJob(deps: JobStoreDeps, jobId: string, workerId: string): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  const result = await owned(deps, jobId, workerId)
    .set({ status: "succeeded", locked_by: null, locked_until: null, finished_at: now, updated_at: now })
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Completes many jobs in one statement (a batch handler's successes).
 * @returns the ids whose lease was lost meanwhile.
 */
export async function completeJobs(deps: JobStoreDeps, jobIds: string[], workerId: string): Promise<string[]> {
  if (jobIds.length === 0) return [];
  const now = deps.clock.now().toISOString();
  const done = await deps.db
    .updateTable("jobs")
    .set({ status: "succeeded", locked_by: null, locked_until: null, finished_at: now, updated_at: now })
    .where("id", "in", jobIds)
    .where("locked_by", "=", workerId)
    .where("status", "=", "running")
    .returning("id")
    .execute();
  const completed = new Set(done.map((row) => row.id));
  return jobIds.filter((id) => !completed.has(id));
}

export async function retryJob(
  deps: JobStoreDeps,
  job: ClaimedJob,
  workerId: string,
  delayMs: number,
  error: string,
): Promise<"retrying" | "dead" | "lost"> {
  const now = deps.clock.now();
  if (job.attempt >= job.maxAttempts) {
    return (await deadJob(deps, job.id, workerId, error)) ? "dead" : "lost";
  }
  const result = await owned(deps, job.id, workerId)
    .set({
      status: "pending",
      run_at: new Date(now.getTime() + delayMs).toISOString(),
      locked_by: null,
      locked_until: null,
      last_error: error.slice(0, 2_000),
      updated_at: now.toISOString(),
    })
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? "retrying" : "lost";
}

export async function deadJob(deps: JobStoreDeps, jobId: string, workerId: string, error: string): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  const result = await owned(deps, jobId, workerId)
    .set({
      status: "dead",
      locked_by: null,
      locked_until: null,
      last_error: error.slice(0, 2_000),
      finished_at: now,
      updated_at: now,
    })
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives a job back untouched (graceful shutdown): runnable again at once, the attempt not counted. */
export async function releaseJob(deps: JobStoreDeps, jobId: string, workerId: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  await owned(deps, jobId, workerId)
    .set((eb) => ({
      status: "pending",
      run_at: now,
      locked_by: null,
      locked_until: null,
      attempts: eb("attempts", "-", 1),
      updated_at: now,
    }))
    .execute();
}

/**
 * Makes the running jobs of this worker's predecessors on the same host claimable at once, rather
 * than after their leases run out: a worker id is `host:pid:random`, and a job locked by this host
 * under a process that no longer runs (or under this very pid, as a container's restarted process
 * is, by an id this process never had) belongs to a dead worker.
 * @returns how many jobs were given back.
 */
export async function reclaimPredecessors(
  deps: JobStoreDeps,
  host: string,
  isPredecessor: (pid: number, workerId: string) => boolean,
): Promise<number> {
  const prefix = `${host}:`;
  const running = await deps.db
    .selectFrom("jobs")
    .select(["id", "locked_by"])
    .where("status", "=", "running")
    .where("locked_until", ">", deps.clock.now().toISOString())
    .execute();
  const dead = running.filter((job) => {
    const lockedBy = job.locked_by ?? "";
    const pid = Number(lockedBy.slice(prefix.length).split(":")[0]);
    return lockedBy.startsWith(prefix) && Number.isInteger(pid) && pid > 0 && isPredecessor(pid, lockedBy);
  });
  if (dead.length === 0) return 0;
  const now = deps.clock.now();
  // Expired a moment ago: the next claim takes them as it takes any dead worker's.
  const result = await deps.db
    .updateTable("jobs")
    .set({ locked_until: new Date(now.getTime() - 1).toISOString(), updated_at: now.toISOString() })
    .where(
      "id",
      "in",
      dead.map((job) => job.id),
    )
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * When the next lease of a running job runs out, if one does after now (epoch ms), else null: the
 * moment a dead worker's job becomes claimable, so that a worker looks then rather than at its
 * next poll. Leases already past are left out: those the claims did not take wait for a free slot.
 */
export async function nextLeaseExpiry(deps: JobStoreDeps): Promise<number | null> {
  const row = await deps.db
    .selectFrom("jobs")
    .select((eb) => eb.fn.min("locked_until").as("next"))
    .where("status", "=", "running")
    .where("locked_until", ">", deps.clock.now().toISOString())
    .executeTakeFirst();
  const next = row?.next as string | Date | null | undefined;
  return next === null || next === undefined ? null : new Date(next).getTime();
}

/** Keeps the leases of running jobs (one, or a whole batch) alive. */
export async function extendLeases(
  deps: JobStoreDeps,
  jobIds: string[],
  workerId: string,
  leaseMs: number,
): Promise<void> {
  const now = deps.clock.now();
  await deps.db
    .updateTable("jobs")
    .set({ locked_until: new Date(now.getTime() + leaseMs).toISOString(), updated_at: now.toISOString() })
    .where("id", "in", jobIds)
    .where("locked_by", "=", workerId)
    .where("status", "=", "running")
    .execute();
}

/** The queue now, for `/metrics`: jobs by kind and state, and how long the oldest due one has waited. */
export async function refreshQueueMetrics(deps: Pick<JobStoreDeps, "db" | "clock">): Promise<void> {
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const counts = await deps.db
    .selectFrom("jobs")
    .select((eb) => ["kind", "status", eb.fn.countAll<number | string>().as("count")])
    .where("status", "in", ["pending", "running"])
    .groupBy(["kind", "status"])
    .execute();
  const oldest = await deps.db
    .selectFrom("jobs")
    .select((eb) => ["kind", eb.fn.min("run_at").as("oldest")])
    .where("status", "=", "pending")
    .where("run_at", "<=", nowIso)
    .groupBy("kind")
    .execute();
  jobsQueued.reset();
  jobQueueAge.reset();
  for (const row of counts) jobsQueued.set({ kind: row.kind, state: row.status }, Number(row.count));
  for (const row of counts) jobQueueAge.set({ kind: row.kind }, 0);
  for (const row of oldest) {
    const waited = (now.getTime() - Date.parse(String(row.oldest))) / 1000;
    jobQueueAge.set({ kind: row.kind }, Math.max(0, waited));
  }
}
