import { CompiledQuery, PostgresAdapter } from "kysely";
import type { Db } from "../db/database.ts";

/** Resources whose rows carry a version (a trigger bumps it on every change: see the migration). */
export type VersionedResource = "projects";

interface Entry {
  version: number;
  /** The database's change stamp when the version was last read, or null where there is none. */
  stamp: string | null;
  body: string;
}

const MAX_ENTRIES = 2_000;
const MAX_BYTES = 64 * 1_048_576;

/**
 * Answers of reads, kept per process and never stale in any process. Each entry holds the
 * resource's version in its workspace, bumped by a database trigger in the transaction of every
 * change to the resource's rows (whichever process, code path or person makes it). An entry is
 * served when:
 * - the database says nothing was committed since the entry was last checked (SQLite's
 *   `data_version`, with this process's own writes counted by the driver): no query at all; or
 * - its version is still the database's: one primary-key read, the only cost on PostgreSQL.
 * Otherwise the answer is computed again, between two reads of the version; it is kept only when
 * both agree, so an answer computed while a change committed is never kept.
 */
export class ReadCache {
  readonly #stamp: (() => string) | null;
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  #stampWaiters: Waiter<string>[] | null = null;

  constructor(stamp: (() => string) | null) {
    this.#stamp = stamp;
  }

  async read(
    db: Db,
    workspaceId: string,
    resource: VersionedResource,
    key: string,
    compute: () => Promise<string>,
  ): Promise<string> {
    const id = `${workspaceId}\u0000${resource}\u0000${key}`;
    const entry = this.#entries.get(id);
    const stamp = await this.#stampAfterTurn();
    if (entry !== undefined && stamp !== null && entry.stamp === stamp) return entry.body;
    const version = await resourceVersion(db, workspaceId, resource);
    if (entry !== undefined && entry.version === version) {
      entry.stamp = stamp;
      return entry.body;
    }
    const body = await compute();
    if ((await resourceVersion(db, workspaceId, resource)) === version) this.#keep(id, { version, stamp, body });
    return body;
  }

  /**
   * The database's change stamp, read once for all the reads asked in this turn of the event loop,
   * when the turn is over (issue 16: one `data_version` per request was a seventh of the cached
   * read's CPU): read after every request of the turn arrived, it sees whatever had committed
   * before any of them asked.
   */
  #stampAfterTurn(): Promise<string | null> {
    const read = this.#stamp;
    if (read === null) return Promise.resolve(null);
    let waiting = this.#stampWaiters;
    if (waiting === null) {
      const batch: Waiter<string>[] = [];
      waiting = batch;
      this.#stampWaiters = batch;
      setImmediate(() => {
        this.#stampWaiters = null;
        settle(batch, read);
      });
    }
    const batch = waiting;
    return new Promise((resolve, reject) => batch.push({ resolve, reject }));
  }

  #keep(id: string, entry: Entry): void {
    const previous = this.#entries.get(id);
    if (previous !== undefined) {
      this.#bytes -= previous.body.length;
      this.#entries.delete(id);
    }
    if (entry.body.length > MAX_BYTES / 16) return;
    this.#entries.set(id, entry);
    this.#bytes += entry.body.length;
    // Oldest first: a Map iterates in insertion order.
    for (const [oldest, kept] of this.#entries) {
      if (this.#entries.size <= MAX_ENTRIES && this.#bytes <= MAX_BYTES) break;
      this.#entries.delete(oldest);
      this.#bytes -= kept.body.length;
    }
  }
}

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** Gives every waiter what `read` answers, or what it throws. */
function settle<T>(waiters: Waiter<T>[], read: () => T): void {
  let value: T;
  try {
    value = read();
  } catch (error) {
    for (const waiter of waiters) waiter.reject(error);
    return;
  }
  for (const waiter of waiters) waiter.resolve(value);
}

/** Version reads waiting for the next query, per database handle. */
interface PendingReads {
  keys: Map<string, { workspaceId: string; resource: VersionedResource }>;
  waiters: { key: string; resolve: (version: number) => void; reject: (error: unknown) => void }[];
}

/** Per database handle: the version reads waiting for the next query, and whether one is out. */
interface VersionReads {
  pending: PendingReads | null;
  flying: boolean;
}

const readsByDb = new WeakMap<Db, VersionReads>();

/**
 * The resource's version in the workspace (0 before its first change), read by a query sent after
 * this call: never an answer older than the request asking. Reads go together (issue 16): those
 * asked in one turn of the event loop, and those asked while the previous query was out, are
 * answered by one query, sent when the turn is over and no other is out. On PostgreSQL the
 * requests of a busy API cost one round trip between them instead of one each, and each still
 * sees every change committed before it asked.
 */
function resourceVersion(db: Db, workspaceId: string, resource: VersionedResource): Promise<number> {
  let reads = readsByDb.get(db);
  if (reads === undefined) {
    reads = { pending: null, flying: false };
    readsByDb.set(db, reads);
  }
  let pending = reads.pending;
  if (pending === null) {
    pending = { keys: new Map(), waiters: [] };
    reads.pending = pending;
    if (!reads.flying) setImmediate(sendVersionReads, db, reads);
  }
  const key = `${workspaceId}\u0000${resource}`;
  pending.keys.set(key, { workspaceId, resource });
  const batch = pending;
  return new Promise((resolve, reject) => batch.waiters.push({ key, resolve, reject }));
}

async function sendVersionReads(db: Db, reads: VersionReads): Promise<void> {
  const batch = reads.pending;
  if (batch === null) return;
  reads.pending = null;
  reads.flying = true;
  await readVersions(db, batch);
  reads.flying = false;
  // Asked while this one was out: sent now, after the turn (their own requests came after it left).
  if (reads.pending !== null) setImmediate(sendVersionReads, db, reads);
}

/** The versions query's text, per dialect and numbers of workspaces and resources: built once, reused. */
const versionQueries = new Map<string, string>();

function versionQuery(pg: boolean, workspaces: number, resources: number): string {
  const id = `${pg}|${workspaces}|${resources}`;
  let text = versionQueries.get(id);
  if (text === undefined) {
    let n = 0;
    const list = (count: number) => Array.from({ length: count }, () => (pg ? `$${++n}` : "?")).join(", ");
    text = `select workspace_id, resource, version from resource_versions where workspace_id in (${list(workspaces)}) and resource in (${list(resources)})`;
    if (versionQueries.size > 1_000) versionQueries.clear();
    versionQueries.set(id, text);
  }
  return text;
}

/**
 * Reads the batch's versions in one query, written as SQL once per shape rather than through the
 * query builder (it runs for every busy turn of an API process).
 */
async function readVersions(db: Db, batch: PendingReads): Promise<void> {
  try {
    const wanted = [...batch.keys.values()];
    const workspaces = [...new Set(wanted.map((w) => w.workspaceId))];
    const resources = [...new Set(wanted.map((w) => w.resource))];
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    const { rows } = await db.executeQuery<{ workspace_id: string; resource: string; version: number | string }>(
      CompiledQuery.raw(versionQuery(pg, workspaces.length, resources.length), [...workspaces, ...resources]),
    );
    const versions = new Map(rows.map((row) => [`${row.workspace_id}\u0000${row.resource}`, Number(row.version)]));
    for (const waiter of batch.waiters) waiter.resolve(versions.get(waiter.key) ?? 0);
  } catch (error) {
    for (const waiter of batch.waiters) waiter.reject(error);
  }
}
