import type { Db, Dialect } from "../db/database.ts";
import { withTransaction } from "../db/transaction.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { ApiKeyCache } from "./api-keys/cache.ts";
import type { LastUsedRecorder } from "./api-keys/last-used.ts";
import type { EngineRegistry } from "./engines/registry.ts";
import type { JobSignal } from "./jobs/signal.ts";
import type { Plan, PlanCatalog } from "./plans/catalog.ts";
import type { RateLimits } from "./rate-limits/rate-limits.ts";
import type { RequestMeter } from "./usage/request-meter.ts";
import type { SecretBox } from "./webhooks/secrets.ts";
import type { TargetPolicy } from "./webhooks/target.ts";

/** What every service may use, whoever calls it: a route, the CLI, the worker or a test. */
export interface Deps {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  logger: Logger;
  plans: PlanCatalog;
  keyCache: ApiKeyCache;
  lastUsed: LastUsedRecorder;
  /** Null when the operator turned rate limits off. */
  rateLimits: RateLimits | null;
  /** Null when the operator turned request metering off. */
  meter: RequestMeter | null;
  /** Wakes this process's worker when a job is enqueued. */
  jobSignal: JobSignal;
  /** Encrypts secrets at rest (webhook signing secrets). */
  secrets: SecretBox;
  /** Where webhooks may be sent. */
  webhookTargets: TargetPolicy;
  /** The AI engines this server can ask. */
  engines: EngineRegistry;
}

/** Who is acting, for audit and for events. */
export type Actor = { type: "api_key"; id: string } | { type: "operator" } | { type: "system" };

/** A service call on behalf of one workspace: every query it makes is scoped to `workspace.id`. */
export interface ServiceContext extends Deps {
  workspace: { id: string; plan: Plan; billingAnchor: string };
  actor: Actor;
  requestId?: string;
}

/** Runs `fn` with a context whose `db` is a transaction (the caller's, if it already has one). */
export function inTransaction<C extends { db: Db }, T>(ctx: C, fn: (ctx: C) => Promise<T>): Promise<T> {
  return withTransaction(ctx.db, (trx) => fn({ ...ctx, db: trx }));
}
