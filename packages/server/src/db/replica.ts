import { sql } from "kysely";
import type { Logger } from "../lib/logger.ts";
import { databaseReads } from "../lib/metrics.ts";
import type { Database, Db } from "./database.ts";

/** How long a read waits for the replica to catch up before it goes to the primary. */
const CATCH_UP_MS = 100;
const POLL_MS = 5;

/** `X/Y` (two hexadecimal halves) as one number, to compare WAL positions. */
function lsn(text: string): bigint {
  const [high, low] = text.split("/");
  return (BigInt(`0x${high ?? "0"}`) << 32n) + BigInt(`0x${low ?? "0"}`);
}

/**
 * Sends reads to a streaming replica (DATABASE_REPLICA_URL) only when it has replayed everything
 * the primary had committed when the read began: a client reading right after its own write (or
 * anyone's) sees it, whichever process wrote it. The read takes the primary's WAL position (one
 * function call, no table), then waits up to 100 ms for the replica to replay that far; a replica
 * further behind, paused, or not a replica at all is passed over for the primary. Both positions
 * are read once per turn of the event loop for all the reads that asked in it.
 */
export class ReplicaRouter {
  readonly #primary: Db;
  readonly #replica: Database;
  readonly #logger: Logger;
  #primaryBatch: Promise<bigint> | null = null;
  #replayBatch: Promise<bigint | null> | null = null;
  #warned = false;

  constructor(primary: Db, replica: Database, logger: Logger) {
    this.#primary = primary;
    this.#replica = replica;
    this.#logger = logger;
  }

  /** The database a read should use now: the replica when it is caught up, else the primary. */
  async reader(): Promise<Db> {
    let target: bigint;
    try {
      target = await this.#batched("primary");
    } catch {
      return this.#use("primary");
    }
    const deadline = performance.now() + CATCH_UP_MS;
    for (;;) {
      let replayed: bigint | null;
      try {
        replayed = await this.#batched("replica");
      } catch (error) {
        this.#warnOnce(`the replica cannot be read (${(error as Error).message}); reads go to the primary`);
        return this.#use("primary");
      }
      if (replayed === null) {
        this.#warnOnce(
          "DATABASE_REPLICA_URL is not a server in recovery (no replay position); reads go to the primary",
        );
        return this.#use("primary");
      }
      if (replayed >= target) return this.#use("replica");
      if (performance.now() >= deadline) return this.#use("primary");
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  close(): Promise<void> {
    return this.#replica.close();
  }

  #use(target: "primary" | "replica"): Db {
    databaseReads.inc({ target });
    return target === "replica" ? this.#replica.db : this.#primary;
  }

  #warnOnce(message: string): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#logger.warn(message);
  }

  /** One query per turn of the event loop, shared by every read that asked in it. */
  #batched(which: "primary"): Promise<bigint>;
  #batched(which: "replica"): Promise<bigint | null>;
  #batched(which: "primary" | "replica"): Promise<bigint | null> {
    if (which === "primary") {
      this.#primaryBatch ??= this.#afterTurn(async () => {
        const { rows } = await sql<{ at: string }>`select pg_current_wal_lsn()::text as at`.execute(this.#primary);
        return lsn(rows[0]?.at ?? "0/0");
      }).finally(() => {
        this.#primaryBatch = null;
      });
      return this.#primaryBatch;
    }
    this.#replayBatch ??= this.#afterTurn(async () => {
      const { rows } = await sql<{ at: string | null }>`select pg_last_wal_replay_lsn()::text as at`.execute(
        this.#replica.db,
      );
      const at = rows[0]?.at ?? null;
      return at === null ? null : lsn(at);
    }).finally(() => {
      this.#replayBatch = null;
    });
    return this.#replayBatch;
  }

  #afterTurn<T>(read: () => Promise<T>): Promise<T> {
    return new Promise<void>((resolve) => setImmediate(resolve)).then(read);
  }
}
