import { spawn } from "node:child_process";
import { hostname } from "node:os";
import pino from "pino";
import { expect, it } from "vitest";
import { withTransaction } from "../../src/db/transaction.ts";
import { claimJobs, enqueueJob } from "../../src/services/jobs/store.ts";
import type { BatchJobHandler, ClaimedJob, JobOutcome } from "../../src/services/jobs/types.ts";
import { Worker } from "../../src/services/jobs/worker.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";

async function jobRow(h: Harness, id: string) {
  return h.deps.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function worker(
  h: Harness,
  handlers: Record<string, ((job: ClaimedJob) => Promise<JobOutcome>) | BatchJobHandler>,
  options = {},
) {
  return new Worker({ ...h.deps, logger: pino({ level: "silent" }) }, handlers, {
    concurrency: 4,
    leaseMs: 5_000,
    pollIntervalMs: 60_000, // only wakes, never polls: proves in-process enqueues wake it
    ...options,
  });
}

describeEachDialect("job queue", (h) => {
  it("enqueues inside the caller's transaction: a rollback leaves no job", async () => {
    const kind = `test.rollback.${Math.random()}`;
    await expect(
      withTransaction(h.deps.db, async (trx) => {
        await enqueueJob({ ...h.deps, db: trx }, { kind, payload: {} });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const rows = await h.deps.db.selectFrom("jobs").select("id").where("kind", "=", kind).execute();
    expect(rows).toEqual([]);
  });

  it("wakes the worker as soon as a job is committed in this process, and runs it once", async () => {
    const kind = `test.wake.${Math.random()}`;
    const runs: string[] = [];
    const w = worker(h, {
      [kind]: async (job) => {
        runs.push(job.id);
        return { status: "succeeded" };
      },
    });
    w.start();
    try {
      const id = await withTransaction(h.deps.db, (trx) =>
        enqueueJob({ ...h.deps, db: trx }, { kind, payload: { n: 1 } }),
      );
      await until(async () => (await jobRow(h, id)).status === "succeeded");
      expect(runs).toEqual([id]);
      expect((await jobRow(h, id)).attempts).toBe(1);
    } finally {
      await w.stop(1_000);
    }
  });

  it("retries with backoff, then dead-letters after the last attempt", async () => {
    const kind = `test.retry.${Math.random()}`;
    let calls = 0;
    const w = worker(h, {
      [kind]: async () => {
        calls++;
        return { status: "retry", delayMs: 10_000, error: `failure ${calls}` };
      },
    });
    w.start();
    try {
      const id = await enqueueJob(h.deps, { kind, payload: {}, maxAttempts: 3 });
      for (let attempt = 1; attempt <= 3; attempt++) {
        await until(
          async () => (await jobRow(h, id)).attempts === attempt && (await jobRow(h, id)).status !== "running",
        );
        if (attempt < 3) {
          const row = await jobRow(h, id);
          expect(row.status).toBe("pending");
          expect(Date.parse(row.run_at) - h.clock.now().getTime()).toBe(10_000);
          h.clock.advance(10_000);
          h.deps.jobSignal.wake();
        }
      }
      const dead = await jobRow(h, id);
      expect(dead).toMatchObject({ status: "dead", attempts: 3, last_error: "failure 3" });
      expect(calls).toBe(3);
    } finally {
      await w.stop(1_000);
    }
  });

  it("retries a handler that throws, with exponential backoff", async () => {
    const kind = `test.throw.${Math.random()}`;
    const w = worker(h, {
      [kind]: async () => {
        throw new Error("kaboom");
      },
    });
    w.start();
    try {
      const id = await enqueueJob(h.deps, { kind, payload: {} });
      // One read per check: two reads could see "pending" before the claim and attempt 1 after it.
      await until(async () => {
        const row = await jobRow(h, id);
        return row.status === "pending" && row.attempts === 1;
      });
      const row = await jobRow(h, id);
      expect(row.last_error).toBe("kaboom");
      const delay = Date.parse(row.run_at) - h.clock.now().getTime();
      expect(delay).toBeGreaterThanOrEqual(800);
      expect(delay).toBeLessThanOrEqual(1_200);
    } finally {
      await w.stop(1_000);
    }
  });

  it("takes back the jobs of a worker whose lease expired (it crashed)", async () => {
    const kind = `test.lease.${Math.random()}`;
    const id = await enqueueJob(h.deps, { kind, payload: {} });
    // A worker claims it and dies without a word.
    // (Other suites' leftover jobs may be claimed alongside; only this one matters here.)
    const mine = (jobs: ClaimedJob[]) => jobs.filter((job) => job.id === id);
    expect(mine(await claimJobs(h.deps, "crashed-worker", 100, 5_000))).toHaveLength(1);
    expect(mine(await claimJobs(h.deps, "another", 100, 5_000))).toEqual([]);
    h.clock.advance(5_001);
    const again = mine(await claimJobs(h.deps, "another", 100, 5_000));
    expect(again).toHaveLength(1);
    expect(again[0]?.attempt).toBe(2);
  });

  it("looks again when a lease runs out, not at its next poll: a dead worker's job runs at once", async () => {
    const kind = `test.expiry.${Math.random()}`;
    const id = await enqueueJob(h.deps, { kind, payload: {} });
    // A worker of another host claims it for a second and dies without a word.
    const claimed = await claimJobs(h.deps, "another-host:1:aaaaaa", 100, 1_000, { only: [kind] });
    expect(claimed.map((job) => job.id)).toEqual([id]);
    let ranAt = 0;
    const w = worker(h, {
      [kind]: async () => {
        ranAt = Date.now();
        return { status: "succeeded" };
      },
    });
    const started = Date.now();
    w.start(); // polls once a minute: only the lease's end can wake it in time
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      h.clock.advance(1_001); // the lease has run out
      await until(async () => ranAt > 0, 5_000);
      expect(ranAt - started).toBeLessThan(5_000);
      // The handler has returned; the worker writes its outcome a moment later.
      await until(async () => (await jobRow(h, id)).status !== "running", 5_000);
      expect(await jobRow(h, id)).toMatchObject({ status: "succeeded", attempts: 2 });
    } finally {
      await w.stop(1_000);
    }
  });

  it("takes a dead predecessor's jobs on this host at once, and leaves live workers' and other hosts' alone", async () => {
    const kind = `test.predecessor.${Math.random()}`;
    const host = hostname();
    // A process that ran and exited: its pid names no process now.
    const gone = spawn(process.execPath, ["-e", ""]);
    const deadPid = gone.pid as number;
    await new Promise((resolve) => gone.on("exit", resolve));
    const holders = {
      dead: `${host}:${deadPid}:aaaaaa`, // a worker process that died
      restarted: `${host}:${process.pid}:bbbbbb`, // this pid under an id no live worker has (a container's restart)
      live: `${host}:${process.ppid}:cccccc`, // a process that runs
      elsewhere: `another-host:${deadPid}:dddddd`, // a host this worker cannot look at
    };
    const ids: Record<string, string> = {};
    for (const [name, holder] of Object.entries(holders)) {
      ids[name] = await enqueueJob(h.deps, { kind, payload: { name } });
      const claimed = await claimJobs(h.deps, holder, 100, 600_000, { only: [kind] });
      expect(claimed.map((job) => job.id)).toEqual([ids[name]]);
    }
    const ran: string[] = [];
    const w = worker(h, {
      [kind]: async (job) => {
        ran.push(String(job.payload.name));
        return { status: "succeeded" };
      },
    });
    w.start();
    try {
      await until(async () => ran.length >= 2);
      expect(ran.sort()).toEqual(["dead", "restarted"]);
      expect((await jobRow(h, ids.live as string)).status).toBe("running");
      expect((await jobRow(h, ids.elsewhere as string)).status).toBe("running");
    } finally {
      await w.stop(1_000);
    }
  });

  it("never gives one job to two workers claiming at once", async () => {
    const kind = `test.race.${Math.random()}`;
    const ids = new Set<string>();
    for (let i = 0; i < 100; i++) ids.add(await enqueueJob(h.deps, { kind, payload: { i } }));
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimJobs(h.deps, `racer-${i}`, 20, 60_000)));
    const claimed = claims
      .flat()
      .map((job) => job.id)
      .filter((id) => ids.has(id));
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBe(100);
  });

  it("finishes running jobs on stop, or releases them when they outlast the deadline", async () => {
    const kind = `test.stop.${Math.random()}`;
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const w = worker(h, {
      [kind]: async (job) => {
        if (job.payload.slow === true) await blocked;
        return { status: "succeeded" };
      },
    });
    w.start();
    const quick = await enqueueJob(h.deps, { kind, payload: { slow: false } });
    await until(async () => (await jobRow(h, quick)).status === "succeeded");
    const slow = await enqueueJob(h.deps, { kind, payload: { slow: true } });
    await until(async () => (await jobRow(h, slow)).status === "running");
    await w.stop(100);
    const released = await jobRow(h, slow);
    expect(released).toMatchObject({ status: "pending", attempts: 0, locked_by: null });
    release();
  });

  it("runs a batch handler's jobs together and records each job's own outcome", async () => {
    const kind = `test.batch.${Math.random()}`;
    const ids: string[] = [];
    for (let n = 0; n < 7; n++) ids.push(await enqueueJob(h.deps, { kind, payload: { n }, maxAttempts: 1 }));
    const batches: number[][] = [];
    const w = worker(h, {
      [kind]: {
        size: 3,
        inFlight: 1,
        async run(jobs) {
          batches.push(jobs.map((job) => Number(job.payload.n)));
          return jobs.map((job): JobOutcome => {
            if (job.payload.n === 2) return { status: "retry", delayMs: 1_000, error: "try again" };
            if (job.payload.n === 4) return { status: "dead", error: "gave up" };
            return { status: "succeeded" };
          });
        },
      },
    });
    w.start();
    try {
      await until(async () => {
        const rows = await Promise.all(ids.map((id) => jobRow(h, id)));
        return rows.every((row) => row.status !== "pending" && row.status !== "running");
      });
      expect(batches.flat().sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(batches.every((batch) => batch.length <= 3)).toBe(true);
      expect(batches.length).toBe(3); // 3 + 3 + 1: queued before the worker started
      const statuses = await Promise.all(ids.map(async (id) => (await jobRow(h, id)).status));
      // n = 2 asked for a retry on its only attempt: dead-lettered, like a single job.
      expect(statuses).toEqual(["succeeded", "succeeded", "dead", "succeeded", "dead", "succeeded", "succeeded"]);
      expect((await jobRow(h, ids[4] ?? "")).last_error).toBe("gave up");
    } finally {
      await w.stop(1_000);
    }
  });

  it("retries every job of a batch whose handler throws, and releases a batch that outlasts stop", async () => {
    const kind = `test.batch-throw.${Math.random()}`;
    let release: () => void = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const w = worker(h, {
      [kind]: {
        size: 10,
        inFlight: 1,
        async run(jobs) {
          calls++;
          if (calls === 1) throw new Error("the receiver's database is down");
          await blocked;
          return jobs.map((): JobOutcome => ({ status: "succeeded" }));
        },
      },
    });
    const ids = [await enqueueJob(h.deps, { kind, payload: {} }), await enqueueJob(h.deps, { kind, payload: {} })];
    w.start();
    await until(async () =>
      (await Promise.all(ids.map((id) => jobRow(h, id)))).every((r) => r.attempts === 1 && r.status === "pending"),
    );
    for (const id of ids) expect((await jobRow(h, id)).last_error).toContain("database is down");
    // Due again at once: the second batch blocks until stop releases both jobs, attempt uncounted.
    await h.deps.db.updateTable("jobs").set({ run_at: h.clock.now().toISOString() }).where("id", "in", ids).execute();
    h.deps.jobSignal.wake();
    await until(async () => (await Promise.all(ids.map((id) => jobRow(h, id)))).every((r) => r.status === "running"));
    await w.stop(100);
    for (const id of ids)
      expect(await jobRow(h, id)).toMatchObject({ status: "pending", attempts: 1, locked_by: null });
    release();
  });

  it("dead-letters a job of a kind no handler knows", async () => {
    const kind = `test.unknown.${Math.random()}`;
    const w = worker(h, {});
    w.start();
    try {
      const id = await enqueueJob(h.deps, { kind, payload: {} });
      await until(async () => (await jobRow(h, id)).status === "dead");
      expect((await jobRow(h, id)).last_error).toContain("no handler");
    } finally {
      await w.stop(1_000);
    }
  });
});
