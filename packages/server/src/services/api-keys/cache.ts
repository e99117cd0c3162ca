import type { Clock } from "../../lib/clock.ts";
import type { PlanName } from "../plan-names.ts";
import type { Scope } from "./scopes.ts";

export interface VerifiedKey {
  id: string;
  workspaceId: string;
  scopes: Scope[];
  expiresAt: string;
  plan: PlanName;
  /** The workspace's billing anchor (YYYY-MM-DD), for metering into the right period. */
  billingAnchor: string;
}

interface Entry {
  key: VerifiedKey;
  cachedAtMs: number;
}

/**
 * In-process cache of verified keys, keyed by the key's hash. An entry lives for `ttlMs`, which
 * bounds how long a revocation or plan change made by another process can go unnoticed here;
 * changes made through this process invalidate entries at once.
 */
export class ApiKeyCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    readonly ttlMs = 3_000,
    private readonly maxEntries = 10_000,
  ) {}

  get(hash: string): VerifiedKey | undefined {
    const entry = this.#entries.get(hash);
    if (entry === undefined) return undefined;
    if (this.clock.now().getTime() - entry.cachedAtMs >= this.ttlMs) {
      this.#entries.delete(hash);
      return undefined;
    }
    return entry.key;
  }

  set(hash: string, key: VerifiedKey): void {
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(hash, { key, cachedAtMs: this.clock.now().getTime() });
  }

  invalidate(match: (key: VerifiedKey) => boolean): void {
    for (const [hash, entry] of this.#entries) {
      if (match(entry.key)) this.#entries.delete(hash);
    }
  }
}
