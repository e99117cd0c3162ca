import type { Db } from "../../db/database.ts";
import { withTransaction } from "../../db/transaction.ts";

/**
 * Remembers when each key (or OAuth connection, `con_…`, which stands for one at /mcp) was last used and writes it in batches, so that authenticating a
 * request never waits on, or adds, a database write. A crash loses at most one flush interval
 * of last-used times, which are informational only.
 */
export class LastUsedRecorder {
  /** Milliseconds since the epoch: formatted when written, not on every request. */
  #pending = new Map<string, number>();

  touch(keyId: string, at: Date): void {
    this.#pending.set(keyId, at.getTime());
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Writes the batch in one transaction; if that fails, the times go back for the next flush. */
  async flush(db: Db): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    try {
      await withTransaction(db, async (tx) => {
        for (const [keyId, ms] of batch) {
          const at = new Date(ms).toISOString();
          await tx
            .updateTable(keyId.startsWith("con_") ? "oauth_connections" : "api_keys")
            .set({ last_used_at: at })
            .where("id", "=", keyId)
            .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", at)]))
            .execute();
        }
      });
    } catch (error) {
      for (const [keyId, at] of batch) {
        const newer = this.#pending.get(keyId);
        if (newer === undefined || newer < at) this.#pending.set(keyId, at);
      }
      throw error;
    }
  }
}
