import type { Db } from "../../db/database.ts";

interface Pending {
  workspaceId: string;
  periodStart: string;
  endpoint: string;
  count: number;
}

/**
 * Counts API requests per workspace, billing period and endpoint in memory, and adds them to the
 * database in one batch per flush (every second by default). A crash loses at most the last
 * second of request counts; credits never go through here and are exact.
 */
export class RequestMeter {
  #pending = new Map<string, Pending>();

  record(workspaceId: string, periodStart: string, endpoint: string, count = 1): void {
    const key = `${workspaceId}\u0000${periodStart}\u0000${endpoint}`;
    const entry = this.#pending.get(key);
    if (entry === undefined) this.#pending.set(key, { workspaceId, periodStart, endpoint, count });
    else entry.count += count;
  }

  /** Counts recorded by this process and not yet written, for a workspace's period. */
  pendingFor(workspaceId: string, periodStart: string): Map<string, number> {
    const out = new Map<string, number>();
    for (const entry of this.#pending.values()) {
      if (entry.workspaceId === workspaceId && entry.periodStart === periodStart) {
        out.set(entry.endpoint, (out.get(entry.endpoint) ?? 0) + entry.count);
      }
    }
    return out;
  }

  async flush(db: Db): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    try {
      await db
        .insertInto("usage_requests")
        .values(
          batch.map((e) => ({
            workspace_id: e.workspaceId,
            period_start: e.periodStart,
            endpoint: e.endpoint,
            count: e.count,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(["workspace_id", "period_start", "endpoint"])
            .doUpdateSet((eb) => ({ count: eb("usage_requests.count", "+", eb.ref("excluded.count")) })),
        )
        .execute();
    } catch (error) {
      // Put the counts back so that the next flush writes them.
      for (const e of batch) this.record(e.workspaceId, e.periodStart, e.endpoint, e.count);
      throw error;
    }
  }
}
