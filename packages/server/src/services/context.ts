import type { Db } from "../db/database.ts";
import type { DialectSql } from "../db/dialect-sql.ts";
import type { ReplicaRouter } from "../db/replica.ts";
import { withTransaction } from "../db/transaction.ts";
import type { ErrorDetail } from "../errors/api-error.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { ServerOrigins } from "../lib/origins.ts";
import type { Redactor } from "../lib/redact.ts";
import type { Identity } from "./accounts/identity.ts";
import type { Mailer } from "./accounts/mailer.ts";
import type { ApiKeyCache } from "./api-keys/cache.ts";
import type { LastUsedRecorder } from "./api-keys/last-used.ts";
import type { Scope } from "./api-keys/scopes.ts";
import type { EngineOutbound } from "./engines/outbound.ts";
import type { EngineRegistry } from "./engines/registry.ts";
import type { EventEnvelope } from "./events/types.ts";
import type { JobSignal } from "./jobs/signal.ts";
import type { AlertChannels, StoredAlertChannels } from "./monitoring/types.ts";
import type { PlanName } from "./plan-names.ts";
import type { Plan, PlanCatalog } from "./plans/catalog.ts";
import type { RateLimits } from "./rate-limits/rate-limits.ts";
import type { CounterStore } from "./rate-limits/store.ts";
import type { ReadCache } from "./read-cache.ts";
import type { BotRanges } from "./traffic/ranges.ts";
import type { RequestMeter } from "./usage/request-meter.ts";
import type { SecretBox } from "./webhooks/secrets.ts";
import type { TargetPolicy } from "./webhooks/target.ts";

/** What every service may use, whoever calls it: a route, the CLI, the worker or a test. */
export interface Deps {
  db: Db;
  /** What the database dialect does differently: row locks, notifications, lock waits. */
  sql: DialectSql;
  clock: Clock;
  logger: Logger;
  plans: PlanCatalog;
  keyCache: ApiKeyCache;
  /** Answers of versioned reads (the projects), never stale in any process. */
  readCache: ReadCache;
  /** Where the routes that read analytics, lists and reports go (DATABASE_REPLICA_URL); null: the primary. */
  replica: ReplicaRouter | null;
  lastUsed: LastUsedRecorder;
  /** Null when the operator turned rate limits off. */
  rateLimits: RateLimits | null;
  /**
   * Window counts shared by every process (Redis when configured): sign-in lockouts and the limits
   * of public routes count here whether or not plan rate limits are on.
   */
  counters: CounterStore;
  /** Null when the operator turned request metering off. */
  meter: RequestMeter | null;
  /** Wakes this process's worker when a job is enqueued. */
  jobSignal: JobSignal;
  /** Encrypts secrets at rest (webhook signing secrets). */
  secrets: SecretBox;
  /** Where webhooks may be sent. */
  webhookTargets: TargetPolicy;
  /** Scrubs configured secrets and credential-shaped text out of text from outside. */
  redactor: Redactor;
  /** The AI engines this server can ask. */
  engines: EngineRegistry;
  /**
   * Where the engines workspaces add themselves may be reached (webhooks' outbound rules): wired
   * where the process is assembled, as event hooks are.
   */
  engineOutbound: EngineOutbound;
  /** The engine that settles mentions the rules are unsure of, and tone (judge/); null: the rules alone. */
  judge: { engine: string } | null;
  /** The AI bots' published address ranges, to verify a claimed bot in access logs (traffic/). */
  botRanges: BotRanges;
  /**
   * What else happens when an event is recorded, in the same transaction (webhooks' fan-out):
   * wired where the process is assembled, so that recording an event depends on no consumer.
   */
  eventHooks: readonly EventHook[];
  /**
   * Checks an alert rule's channels (e-mail, Slack) and seals them for storage: notifications/,
   * wired where the process is assembled, as event hooks are, so that monitoring depends on no
   * delivery code.
   */
  alertChannels: AlertChannelCheck;
  /** Who someone is: accounts, sessions, passwords (the dashboard's). */
  identity: Identity;
  /** E-mail, when SMTP is configured. */
  mailer: Mailer | null;
  /** Who may sign up: the first user, the invited, and everyone when `open`; on which plan. */
  signup: { plan: PlanName; open: boolean };
  /** Where users reach this server: the links in e-mails and invitations start with it. */
  publicUrl: string;
  /** The host names this server answers to and the page origins it trusts, from its configuration. */
  origins: ServerOrigins;
  /** What the first account must be created with (accounts/setup-code.ts). */
  setupCode: string;
}

type EventHook = (ctx: ServiceContext, event: EventEnvelope) => Promise<unknown>;

/**
 * One rule's channels as sent → as stored (the Slack URL encrypted), or undefined when there are
 * none; problems go into `details` under `field`. `kept` are the schedule's channels as stored
 * before the change: a masked Slack URL sent back keeps the URL it masks.
 */
export type AlertChannelCheck = (
  ctx: ServiceContext,
  input: AlertChannels,
  kept: readonly StoredAlertChannels[],
  field: string,
  details: ErrorDetail[],
) => Promise<StoredAlertChannels | undefined>;

/** Who is acting, for audit and for events. */
type Actor =
  | { type: "api_key"; id: string }
  | { type: "user"; id: string }
  | { type: "ingest_token"; id: string }
  | { type: "operator" }
  | { type: "system" };

/** A service call on behalf of one workspace: every query it makes is scoped to `workspace.id`. */
export interface ServiceContext extends Deps {
  workspace: { id: string; plan: Plan; billingAnchor: string };
  actor: Actor;
  /**
   * What the caller may do: an API key's scopes, a member's role as scopes. Absent for the operator
   * and the system, who may do everything. Routes check it before the service runs; a service
   * reads it only to leave out what a caller may not see (a report's share links).
   */
  scopes?: readonly Scope[];
  requestId?: string;
}

/** Runs `fn` with a context whose `db` is a transaction (the caller's, if it already has one). */
export function inTransaction<C extends { db: Db }, T>(ctx: C, fn: (ctx: C) => Promise<T>): Promise<T> {
  return withTransaction(ctx.db, (trx) => fn({ ...ctx, db: trx }));
}
