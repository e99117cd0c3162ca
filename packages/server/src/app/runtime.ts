import { randomBytes } from "node:crypto";
import type { AccountsConfig } from "../config/config.ts";
import type { DatabaseConfig } from "../config/database-url.ts";
import { defaultEngineConfig, type EngineConfig } from "../config/engines.ts";
import { configuredSecrets } from "../config/secrets.ts";
import { authDatabase } from "../db/auth-database.ts";
import { type Database, openDatabase } from "../db/database.ts";
import { dialectSql } from "../db/dialect-sql.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { ReplicaRouter } from "../db/replica.ts";
import { systemResolver } from "../lib/addresses.ts";
import { type Clock, systemClock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { ServerOrigins } from "../lib/origins.ts";
import { Redactor } from "../lib/redact.ts";
import { createIdentity } from "../services/accounts/identity.ts";
import { smtpMailer } from "../services/accounts/mailer.ts";
import { setupCode } from "../services/accounts/setup-code.ts";
import { ApiKeyCache } from "../services/api-keys/cache.ts";
import { LastUsedRecorder } from "../services/api-keys/last-used.ts";
import type { Deps } from "../services/context.ts";
import { EngineRegistry } from "../services/engines/registry.ts";
import { JobSignal } from "../services/jobs/signal.ts";
import { checkAlertChannels } from "../services/notifications/channels.ts";
import { notifyAlertChannels } from "../services/notifications/queue.ts";
import { DEFAULT_PLANS, type PlanCatalog } from "../services/plans/catalog.ts";
import { RateLimits } from "../services/rate-limits/rate-limits.ts";
import { CounterStore } from "../services/rate-limits/store.ts";
import { ReadCache } from "../services/read-cache.ts";
import { BotRanges } from "../services/traffic/ranges.ts";
import { RequestMeter } from "../services/usage/request-meter.ts";
import { engineOutbound } from "../services/webhooks/engine-outbound.ts";
import { fanOutEvent } from "../services/webhooks/fanout.ts";
import { SecretBox } from "../services/webhooks/secrets.ts";
import { dataFolderKey } from "./secret-key.ts";

const LAST_USED_FLUSH_MS = 5_000;
const METER_FLUSH_MS = 1_000;

/** One process's long-lived parts: the database and what every service shares. */
export interface Runtime {
  database: Database;
  deps: Deps;
  /** Writes buffered counters now (also done on a timer and by close). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** The parts of Config a runtime reads; everything but the database has a default. */
export interface RuntimeConfig {
  database: DatabaseConfig & { poolSize?: number };
  /** DATABASE_REPLICA_URL: a streaming replica the reading routes use when it is caught up. */
  replicaDatabaseUrl?: string | null;
  redisUrl?: string | null;
  plans?: PlanCatalog;
  rateLimits?: boolean;
  requestMetering?: boolean;
  /** Encryption keys for secrets at rest; without them, the data folder's key file. */
  secretKeys?: Buffer[] | null;
  dataDir?: string;
  webhookAllowPrivate?: boolean;
  /** Engine credentials and limits; without them, only the sandbox answers. */
  engines?: EngineConfig;
  /** The engine that settles ambiguous mentions and tone; none by default. */
  judge?: { engine: string } | null;
  /** SIGHTLINE_BOT_RANGES_FILE: the bots' ranges in place of the shipped file. */
  botRangesFile?: string | null;
  /** Dashboard accounts; by default http://localhost:8080, sign-up plan agency, closed sign-up, no e-mail. */
  accounts?: Partial<AccountsConfig>;
}

export interface RuntimeOptions {
  clock?: Clock;
  /** Apply pending migrations on open (every process does; it is idempotent and locked). */
  migrate?: boolean;
  /** Tests shorten the 60-second window instead of waiting for it. */
  rateLimitWindowSeconds?: number;
  /** Tests isolate their counts in a shared Redis. */
  rateLimitKeyPrefix?: string;
}

function secretKeys(config: RuntimeConfig, logger: Logger): Buffer[] {
  if (config.secretKeys !== undefined && config.secretKeys !== null) return config.secretKeys;
  if (config.dataDir !== undefined) {
    if (config.database.dialect === "postgres") {
      logger.info(
        "secrets are encrypted with the data folder's key; set SIGHTLINE_SECRET_KEY when processes run on several hosts",
      );
    }
    return [dataFolderKey(config.dataDir)];
  }
  logger.warn(
    "no SIGHTLINE_SECRET_KEY and no data folder: secrets are encrypted with a key that dies with this process",
  );
  return [randomBytes(32)];
}

export async function createRuntime(
  config: RuntimeConfig,
  logger: Logger,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const database = openDatabase(config.database);
  try {
    if (options.migrate !== false) {
      const applied = await migrateToLatest(database);
      if (applied.length > 0) logger.info({ migrations: applied }, "database migrated");
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  const clock = options.clock ?? systemClock;
  const keys = secretKeys(config, logger);
  const redactor = new Redactor(configuredSecrets({ ...config, secretKeys: keys }));
  const accounts: AccountsConfig = {
    publicUrl: "http://localhost:8080",
    allowedHosts: [],
    signupPlan: "agency",
    openSignup: false,
    smtp: null,
    ...config.accounts,
  };
  const counters = new CounterStore(logger, {
    redisUrl: config.redisUrl ?? null,
    ...(options.rateLimitKeyPrefix === undefined ? {} : { keyPrefix: options.rateLimitKeyPrefix }),
  });
  const origins = new ServerOrigins(accounts.publicUrl, accounts.allowedHosts);
  const mailer = accounts.smtp === null ? null : smtpMailer(accounts.smtp.url, accounts.smtp.from);
  const webhookTargets = { allowPrivate: config.webhookAllowPrivate ?? false, resolver: systemResolver };
  const deps: Deps = {
    redactor,
    eventHooks: [fanOutEvent, notifyAlertChannels],
    alertChannels: checkAlertChannels,
    jobSignal: new JobSignal(),
    secrets: new SecretBox(keys),
    webhookTargets,
    engineOutbound: engineOutbound(webhookTargets),
    engines: new EngineRegistry(config.engines ?? defaultEngineConfig(), logger, redactor),
    judge: config.judge ?? null,
    botRanges: BotRanges.load(config.botRangesFile ?? undefined),
    db: database.db,
    sql: dialectSql(database.dialect),
    clock,
    logger,
    plans: config.plans ?? DEFAULT_PLANS,
    keyCache: new ApiKeyCache(clock),
    readCache: new ReadCache(database.changeStamp),
    replica:
      config.replicaDatabaseUrl === undefined || config.replicaDatabaseUrl === null
        ? null
        : new ReplicaRouter(
            database.db,
            openDatabase({ dialect: "postgres", url: config.replicaDatabaseUrl, poolSize: config.database.poolSize }),
            logger,
          ),
    lastUsed: new LastUsedRecorder(),
    rateLimits:
      config.rateLimits === false
        ? null
        : new RateLimits(logger, {
            // Real time, not the service clock: windows are the store's TTLs.
            clock: systemClock,
            store: counters,
            ...(options.rateLimitWindowSeconds === undefined ? {} : { windowSeconds: options.rateLimitWindowSeconds }),
          }),
    counters,
    meter: config.requestMetering === false ? null : new RequestMeter(),
    identity: createIdentity({
      database: authDatabase(database),
      publicUrl: accounts.publicUrl,
      origins,
      counters,
      secretKey: keys[0] ?? randomBytes(32),
      mailer,
      logger,
    }),
    mailer,
    signup: { plan: accounts.signupPlan, open: accounts.openSignup },
    publicUrl: accounts.publicUrl,
    origins,
    setupCode: setupCode(keys[0] ?? randomBytes(32)),
  };

  await counters.ready();

  const attempt = async (what: string, write: () => Promise<void>) => {
    try {
      await write();
    } catch (error) {
      logger.warn({ err: error }, `could not write ${what}; will retry`);
    }
  };
  const flushLastUsed = () => attempt("API keys' last use", () => deps.lastUsed.flush(database.db));
  const flushMeter = () => attempt("request counts", async () => deps.meter?.flush(database.db));
  const timers = [setInterval(flushLastUsed, LAST_USED_FLUSH_MS), setInterval(flushMeter, METER_FLUSH_MS)];
  for (const timer of timers) timer.unref();

  let closed = false;
  return {
    database,
    deps,
    async flush() {
      await flushLastUsed();
      await flushMeter();
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearInterval(timer);
      await flushLastUsed();
      await flushMeter();
      await deps.rateLimits?.close();
      await counters.close();
      await deps.replica?.close();
      await database.close();
    },
  };
}
