import { join, resolve } from "node:path";
import type { LogLevel } from "../lib/logger.ts";
import type { BiExportSchedule } from "../services/bi/export.ts";
import type { VendorDescriptor, VendorSettings } from "../services/engines/descriptor.ts";
import type { EnginePrice } from "../services/engines/prices.ts";
import { type CustomEngineSettings, type EngineConfig, vendorSettings } from "../services/engines/settings.ts";
import { engineVariables, variableNames } from "../services/engines/variables.ts";
import { PLAN_NAMES, type PlanName } from "../services/plan-names.ts";
import { DEFAULT_PLANS, type PlanCatalog } from "../services/plans/catalog.ts";
import { loadPlanCatalog } from "../services/plans/load.ts";
import { DEFAULT_RETENTION, type RetentionConfig } from "../services/retention/prune.ts";
import { BotRanges } from "../services/traffic/ranges.ts";
import { type DatabaseConfig, parseDatabaseUrl } from "./database-url.ts";
import { parseConcurrencyByEngine, parseCustomEngines, parseEnginePrices, parseJudgeEngine } from "./engines.ts";
import {
  ConfigValueError,
  parseBoolean,
  parseChoice,
  parseHostList,
  parseHttpUrl,
  parseInteger,
  parseRedisUrl,
  parseSecretKeys,
  parseSmtpUrl,
} from "./parse.ts";

/** Everything the processes read from the environment, parsed once at boot. */
export interface Config {
  http: {
    host: string;
    port: number;
    publicUrl: string;
    bodyLimitBytes: number;
    trustProxy: boolean;
    /** The whole request, headers and body, must arrive within this; else 408 and the connection closes. */
    requestTimeoutMs: number;
    /** How long an idle keep-alive connection stays open. */
    keepAliveTimeoutMs: number;
    /** Connections this process holds at once; more are closed at once. */
    maxConnections: number;
  };
  database: DatabaseConfig & { poolSize: number };
  /** DATABASE_REPLICA_URL: a streaming replica for reads; null: none. */
  replicaDatabaseUrl: string | null;
  /** PostgreSQL reached directly, for `LISTEN` (DATABASE_DIRECT_URL, else DATABASE_URL); null on SQLite. */
  directDatabaseUrl: string | null;
  redisUrl: string | null;
  plans: PlanCatalog;
  rateLimits: boolean;
  requestMetering: boolean;
  /** Keys that encrypt secrets at rest, the first one encrypting; null: the data folder's key file. */
  secretKeys: Buffer[] | null;
  webhookAllowPrivate: boolean;
  worker: { concurrency: number; leaseSeconds: number; pollMs: number };
  retention: RetentionConfig;
  /** SIGHTLINE_BI_EXPORT_DIR: the workers write every workspace's BI views there as CSV, every `everyHours`; null: off. */
  biExport: BiExportSchedule | null;
  engines: EngineConfig;
  /** The engine that settles ambiguous mentions and tone; null: the rules alone. */
  judge: { engine: string } | null;
  /** SIGHTLINE_BOT_RANGES_FILE; null: the ranges shipped with Sightline. */
  botRangesFile: string | null;
  dataDir: string;
  logLevel: LogLevel;
  shutdownTimeoutMs: number;
  accounts: AccountsConfig;
  /**
   * `/metrics`: on the API's port behind a bearer token when `token` is set; on its own port
   * (`port`, on `host`) for every process kind when that is set; else nowhere.
   */
  metrics: { token: string | null; port: number | null; host: string };
  /** OpenTelemetry traces, sent over OTLP/HTTP to `endpoint`; null: off. */
  tracing: { endpoint: string; serviceName: string } | null;
}

/** Dashboard accounts: where users reach the server, who may sign up, and e-mail. */
export interface AccountsConfig {
  publicUrl: string;
  /** Other host names the server answers to (SIGHTLINE_ALLOWED_HOSTS), besides the public URL's. */
  allowedHosts: string[];
  signupPlan: PlanName;
  openSignup: boolean;
  smtp: { url: string; from: string } | null;
}

export interface ConfigVariable {
  name: string;
  default: string;
  description: string;
}

/** The documented variables, in the order of the README's configuration table. */
export const CONFIG_VARIABLES: ConfigVariable[] = [
  { name: "PORT", default: "8080", description: "HTTP port of the API (0 picks a free one)." },
  { name: "HOST", default: "127.0.0.1", description: "Interface to listen on; `0.0.0.0` in a container." },
  {
    name: "DATABASE_URL",
    default: "sqlite:./data/sightline.db",
    description: "`sqlite:/path/file.db` (embedded, created on first start) or `postgres://user@host:5432/db`.",
  },
  { name: "DATABASE_POOL_SIZE", default: "10", description: "PostgreSQL connections per process." },
  {
    name: "DATABASE_REPLICA_URL",
    default: "(none)",
    description:
      "A streaming replica of the PostgreSQL database: analytics, lists and reports read from it whenever it has replayed what the primary had committed when the read began, else from the primary.",
  },
  {
    name: "DATABASE_DIRECT_URL",
    default: "(DATABASE_URL)",
    description:
      "PostgreSQL without a pooler in between, for what needs a session of its own (the workers' `LISTEN`), when DATABASE_URL goes through PgBouncer in transaction mode.",
  },
  {
    name: "SIGHTLINE_DATA_DIR",
    default: "./data",
    description: "Folder for the embedded database and generated local secrets.",
  },
  {
    name: "SIGHTLINE_PUBLIC_URL",
    default: "http://localhost:$PORT",
    description:
      "Address clients use to reach this server: links in e-mails, the OpenAPI document, and the one host name requests may carry (with loopback names when it is a loopback URL).",
  },
  {
    name: "SIGHTLINE_ALLOWED_HOSTS",
    default: "(none)",
    description:
      "Other host names the server answers to, comma-separated (`sightline.internal,10.0.0.5:8080`); a request for any other host is refused (DNS rebinding).",
  },
  {
    name: "REDIS_URL",
    default: "(none)",
    description:
      "`redis://host:6379`: rate-limit counts shared by every API process. Without it each process counts alone.",
  },
  {
    name: "SIGHTLINE_PLANS",
    default: "(built-in)",
    description: "A JSON or YAML file overriding the plan catalog (API access, requests/min, credits/month, engines).",
  },
  {
    name: "TRUST_PROXY",
    default: "false",
    description: "`true` behind a reverse proxy, so that per-address limits use X-Forwarded-For.",
  },
  {
    name: "SIGHTLINE_REQUEST_TIMEOUT_SECONDS",
    default: "30",
    description:
      "A request's headers and body must arrive within this; a slower client gets 408 and its connection is closed.",
  },
  {
    name: "SIGHTLINE_KEEPALIVE_TIMEOUT_SECONDS",
    default: "72",
    description: "How long an idle keep-alive connection is kept (above a load balancer's idle timeout).",
  },
  {
    name: "SIGHTLINE_MAX_CONNECTIONS",
    default: "4096",
    description: "Connections one process holds at once; past it, new connections are closed at once.",
  },
  {
    name: "SIGHTLINE_RATE_LIMITS",
    default: "on",
    description: "`off` disables per-minute rate limits (single-tenant installs); headers are then not sent.",
  },
  {
    name: "SIGHTLINE_REQUEST_METERING",
    default: "on",
    description: "`off` stops counting API requests per endpoint in usage; credits are always counted.",
  },
  {
    name: "SIGHTLINE_SECRET_KEY",
    default: "(data folder)",
    description:
      "Base64 of 32 random bytes (`openssl rand -base64 32`) encrypting secrets at rest; comma-separate several to rotate, new first. Without it a key is generated into the data folder; set it when processes run on several hosts.",
  },
  {
    name: "SIGHTLINE_WEBHOOK_ALLOW_PRIVATE",
    default: "false",
    description: "`true` lets webhooks target private and loopback addresses (local development only).",
  },
  {
    name: "SIGHTLINE_SIGNUP_PLAN",
    default: "agency",
    description: "The plan of the first account's workspace, and of workspaces users create in the dashboard.",
  },
  {
    name: "SIGHTLINE_OPEN_SIGNUP",
    default: "false",
    description: "`true` lets anyone create an account (with a workspace of their own); otherwise by invitation only.",
  },
  {
    name: "SMTP_URL",
    default: "(none)",
    description:
      "`smtps://user:password@host:465`: invitations, password resets, alert e-mails and weekly digests. Without it, links are shown to the admin or printed by the CLI, and e-mail alerts and digests are refused.",
  },
  {
    name: "SMTP_FROM",
    default: "Sightline <sightline@localhost>",
    description: "The sender of those e-mails.",
  },
  {
    name: "SIGHTLINE_WORKER_CONCURRENCY",
    default: "8",
    description: "Jobs (analyses, deliveries) a worker runs at once.",
  },
  {
    name: "SIGHTLINE_JOB_LEASE_SECONDS",
    default: "6",
    description:
      "How long a crashed worker's jobs wait before another worker takes them; a live worker renews its leases every quarter of it.",
  },
  {
    name: "SIGHTLINE_JOB_POLL_MS",
    default: "1000",
    description:
      "How often a worker looks for jobs enqueued by other processes (PostgreSQL also wakes it with NOTIFY).",
  },
  {
    name: "SIGHTLINE_RETENTION_JOBS_DAYS",
    default: "7",
    description: "Finished jobs older than this many days are deleted in the background.",
  },
  {
    name: "SIGHTLINE_RETENTION_DELIVERIES_DAYS",
    default: "30",
    description:
      "Webhook deliveries and alert notifications that are done (sent, failed or canceled) older than this are deleted.",
  },
  {
    name: "SIGHTLINE_RETENTION_TRAFFIC_DAYS",
    default: "400",
    description: "Daily counts of AI bot hits and AI referrals (traffic) older than this many days are deleted.",
  },
  {
    name: "SIGHTLINE_RETENTION_ANSWER_TEXT_DAYS",
    default: "(keep)",
    description:
      "Answers' texts older than this many days are removed; their measures, citations and every figure stay.",
  },
  {
    name: "SIGHTLINE_RETENTION_ANSWER_MONTHS",
    default: "(keep)",
    description:
      "PostgreSQL: answers of analyses started more than this many months ago are dropped, a month's partition at a time; the figures (rollups) stay.",
  },
  ...engineVariables(),
  {
    name: "SIGHTLINE_CUSTOM_ENGINES",
    default: "(none)",
    description:
      'OpenAI-compatible engines (Ollama, vLLM, llama.cpp), as JSON or a JSON file: `[{"name": "llama3", "base_url": "http://localhost:11434/v1", "model": "llama3.1"}]`.',
  },
  {
    name: "SIGHTLINE_WORKSPACE_ENGINE_KEYS",
    default: "true",
    description:
      "`false` forbids workspaces to connect engines themselves (Settings → Engines: their own keys and OpenAI-compatible endpoints); only the keys above are used.",
  },
  { name: "SIGHTLINE_ENGINE_TIMEOUT_SECONDS", default: "90", description: "How long one engine request may take." },
  {
    name: "SIGHTLINE_ENGINE_MAX_RETRIES",
    default: "2",
    description: "Retries of an engine request after a 429, a 5xx or a timeout, honouring Retry-After.",
  },
  {
    name: "SIGHTLINE_ENGINE_CONCURRENCY",
    default: "4",
    description:
      "Requests in flight at once per engine and worker, at most: a 429 halves an engine's bound, requests it accepts raise it back.",
  },
  {
    name: "SIGHTLINE_ENGINE_CONCURRENCY_BY_ENGINE",
    default: "(none)",
    description:
      'Each engine\'s own bound, from its vendor\'s documented rate limits, as JSON: `{"chatgpt": 32, "sandbox": 128}` (the sandbox\'s is 64).',
  },
  {
    name: "SIGHTLINE_ENGINE_PRICES",
    default: "(none)",
    description:
      'Your own prices (USD) for some engines, over the list prices in docs/costs.md, as JSON: `{"chatgpt": {"input_per_million": 0.25, "output_per_million": 2, "per_search": 0.01, "per_request": 0}}` (any of the four fields).',
  },
  {
    name: "SIGHTLINE_BATCH_POLL_SECONDS",
    default: "60",
    description:
      "How often a worker looks at the vendors' batches of monitoring schedules with `batch: true` (OpenAI, Anthropic, Gemini).",
  },
  {
    name: "SIGHTLINE_JUDGE_ENGINE",
    default: "(none)",
    description:
      "A configured engine (e.g. `chatgpt`) asked, with a fixed prompt, to settle mentions the rules are unsure of and the brand's tone; one credit per call, cached per answer. Without it the rules decide alone.",
  },
  {
    name: "SIGHTLINE_BOT_RANGES_FILE",
    default: "(shipped)",
    description:
      'A JSON file of the AI bots\' published address ranges, `{"GPTBot": ["cidr", …], …}`, replacing the dated list shipped with Sightline (traffic, docs/traffic.md).',
  },
  {
    name: "SIGHTLINE_SANDBOX_LATENCY_MS",
    default: "0",
    description: "Simulated latency of the offline sandbox engine.",
  },
  { name: "LOG_LEVEL", default: "info", description: "fatal, error, warn, info, debug, trace or silent." },
  {
    name: "SIGHTLINE_SHUTDOWN_TIMEOUT",
    default: "25",
    description: "Seconds SIGTERM waits for in-flight work before exiting anyway.",
  },
  {
    name: "SIGHTLINE_METRICS_TOKEN",
    default: "(none)",
    description:
      "Serves `GET /metrics` (Prometheus) on the API's port to `Authorization: Bearer <token>`; at least 16 characters.",
  },
  {
    name: "SIGHTLINE_METRICS_PORT",
    default: "(none)",
    description:
      "Serves `/metrics` on this port of SIGHTLINE_METRICS_HOST, without a token, in every process (API and worker).",
  },
  {
    name: "SIGHTLINE_METRICS_HOST",
    default: "127.0.0.1",
    description: "Interface of the metrics port; keep it internal.",
  },
  {
    name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    default: "(none)",
    description:
      "Sends OpenTelemetry traces (requests, analyses, vendor calls) over OTLP/HTTP to this URL; `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces` also works. Off when unset.",
  },
  {
    name: "OTEL_SERVICE_NAME",
    default: "sightline",
    description: "The service name on the traces.",
  },
];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const LOG_LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

type Env = Record<string, string | undefined>;

/** Parses every variable, collecting all problems so that one start-up shows them all. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  function read<T>(name: string, fallback: T, parse: (raw: string) => T): T {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") return fallback;
    try {
      return parse(raw);
    } catch (error) {
      if (!(error instanceof ConfigValueError)) throw error;
      problems.push(`${name} ${error.message}`);
      return fallback;
    }
  }

  const port = read("PORT", 8080, (raw) => parseInteger(raw, 0, 65535));
  const host = read("HOST", "127.0.0.1", (raw) => raw.trim());
  const dataDir = read("SIGHTLINE_DATA_DIR", resolve(cwd, "data"), (raw) => resolve(cwd, raw.trim()));
  const database = read<DatabaseConfig>(
    "DATABASE_URL",
    { dialect: "sqlite", path: join(dataDir, "sightline.db") },
    (raw) => parseDatabaseUrl(raw, cwd),
  );
  const poolSize = read("DATABASE_POOL_SIZE", 10, (raw) => parseInteger(raw, 1, 500));
  const replicaUrl = read<string | null>("DATABASE_REPLICA_URL", null, (raw) => {
    const parsed = parseDatabaseUrl(raw, cwd);
    if (parsed.dialect !== "postgres") throw new ConfigValueError("must be a postgres:// URL");
    return parsed.url;
  });
  const directUrl = read<string | null>("DATABASE_DIRECT_URL", null, (raw) => {
    const parsed = parseDatabaseUrl(raw, cwd);
    if (parsed.dialect !== "postgres") throw new ConfigValueError("must be a postgres:// URL");
    return parsed.url;
  });
  const publicUrl = read("SIGHTLINE_PUBLIC_URL", `http://localhost:${port === 0 ? 8080 : port}`, parseHttpUrl);
  const allowedHosts = read<string[]>("SIGHTLINE_ALLOWED_HOSTS", [], parseHostList);
  const logLevel = read("LOG_LEVEL", "info" as LogLevel, (raw) => parseChoice(raw, LOG_LEVELS));
  const shutdownSeconds = read("SIGHTLINE_SHUTDOWN_TIMEOUT", 25, (raw) => parseInteger(raw, 1, 3600));
  const redisUrl = read<string | null>("REDIS_URL", null, parseRedisUrl);
  const trustProxy = read("TRUST_PROXY", false, parseBoolean);
  const requestTimeoutSeconds = read("SIGHTLINE_REQUEST_TIMEOUT_SECONDS", 30, (raw) => parseInteger(raw, 1, 3600));
  const keepAliveSeconds = read("SIGHTLINE_KEEPALIVE_TIMEOUT_SECONDS", 72, (raw) => parseInteger(raw, 1, 3600));
  const maxConnections = read("SIGHTLINE_MAX_CONNECTIONS", 4096, (raw) => parseInteger(raw, 1, 1_000_000));
  const rateLimits = read("SIGHTLINE_RATE_LIMITS", true, parseBoolean);
  const requestMetering = read("SIGHTLINE_REQUEST_METERING", true, parseBoolean);
  const secretKeys = read<Buffer[] | null>("SIGHTLINE_SECRET_KEY", null, parseSecretKeys);
  const webhookAllowPrivate = read("SIGHTLINE_WEBHOOK_ALLOW_PRIVATE", false, parseBoolean);
  const signupPlan = read<PlanName>("SIGHTLINE_SIGNUP_PLAN", "agency", (raw) => parseChoice(raw.trim(), PLAN_NAMES));
  const openSignup = read("SIGHTLINE_OPEN_SIGNUP", false, parseBoolean);
  const smtpUrl = read<string | null>("SMTP_URL", null, parseSmtpUrl);
  const smtpFrom = read("SMTP_FROM", "Sightline <sightline@localhost>", (raw) => raw.trim());
  const concurrency = read("SIGHTLINE_WORKER_CONCURRENCY", 8, (raw) => parseInteger(raw, 1, 256));
  const leaseSeconds = read("SIGHTLINE_JOB_LEASE_SECONDS", 6, (raw) => parseInteger(raw, 1, 3600));
  const pollMs = read("SIGHTLINE_JOB_POLL_MS", 1000, (raw) => parseInteger(raw, 10, 60_000));
  const biExportDir = read<string | null>("SIGHTLINE_BI_EXPORT_DIR", null, (raw) => resolve(cwd, raw.trim()));
  const biExportHours = read("SIGHTLINE_BI_EXPORT_HOURS", 24, (raw) => parseInteger(raw, 1, 24 * 366));
  const retention: RetentionConfig = {
    jobsDays: read("SIGHTLINE_RETENTION_JOBS_DAYS", DEFAULT_RETENTION.jobsDays, (raw) => parseInteger(raw, 1, 36_500)),
    deliveriesDays: read("SIGHTLINE_RETENTION_DELIVERIES_DAYS", DEFAULT_RETENTION.deliveriesDays, (raw) =>
      parseInteger(raw, 1, 36_500),
    ),
    answerTextDays: read<number | null>("SIGHTLINE_RETENTION_ANSWER_TEXT_DAYS", null, (raw) =>
      parseInteger(raw, 1, 36_500),
    ),
    answerMonths: read<number | null>("SIGHTLINE_RETENTION_ANSWER_MONTHS", null, (raw) => parseInteger(raw, 1, 1200)),
    trafficDays: read("SIGHTLINE_RETENTION_TRAFFIC_DAYS", DEFAULT_RETENTION.trafficDays ?? 400, (raw) =>
      parseInteger(raw, 1, 36_500),
    ),
  };
  const vendor = (descriptor: VendorDescriptor): VendorSettings => {
    const names = variableNames(descriptor);
    return {
      apiKey: read<string | null>(names.apiKey, null, (raw) => raw.trim()),
      baseUrl: read<string | null>(names.baseUrl, null, parseHttpUrl),
      model:
        names.model === null
          ? descriptor.defaultModel
          : read(names.model, descriptor.defaultModel, (raw) => raw.trim()),
    };
  };
  const custom = read<CustomEngineSettings[]>("SIGHTLINE_CUSTOM_ENGINES", [], (raw) => parseCustomEngines(raw, cwd));
  const engines: EngineConfig = {
    vendors: vendorSettings(vendor),
    custom,
    timeoutMs: read("SIGHTLINE_ENGINE_TIMEOUT_SECONDS", 90, (raw) => parseInteger(raw, 1, 3600)) * 1000,
    maxRetries: read("SIGHTLINE_ENGINE_MAX_RETRIES", 2, (raw) => parseInteger(raw, 0, 10)),
    concurrency: read("SIGHTLINE_ENGINE_CONCURRENCY", 4, (raw) => parseInteger(raw, 1, 256)),
    concurrencyByEngine: read<Record<string, number>>("SIGHTLINE_ENGINE_CONCURRENCY_BY_ENGINE", {}, (raw) =>
      parseConcurrencyByEngine(raw, custom),
    ),
    pricesByEngine: read<Record<string, Partial<EnginePrice>>>("SIGHTLINE_ENGINE_PRICES", {}, (raw) =>
      parseEnginePrices(raw, custom),
    ),
    batchPollSeconds: read("SIGHTLINE_BATCH_POLL_SECONDS", 60, (raw) => parseInteger(raw, 1, 3600)),
    sandboxLatencyMs: read("SIGHTLINE_SANDBOX_LATENCY_MS", 0, (raw) => parseInteger(raw, 0, 60_000)),
    workspaceKeys: read("SIGHTLINE_WORKSPACE_ENGINE_KEYS", true, parseBoolean),
  };
  const judgeEngine = read<string | null>("SIGHTLINE_JUDGE_ENGINE", null, (raw) => parseJudgeEngine(raw, engines));
  const botRangesFile = read<string | null>("SIGHTLINE_BOT_RANGES_FILE", null, (raw) => {
    const path = resolve(cwd, raw.trim());
    try {
      BotRanges.load(path);
    } catch (error) {
      throw new ConfigValueError(`(${raw.trim()}) ${(error as Error).message.replace(/^ENOENT: /, "")}`);
    }
    return path;
  });
  const plans = read<PlanCatalog>("SIGHTLINE_PLANS", DEFAULT_PLANS, (raw) => {
    try {
      return loadPlanCatalog(
        resolve(cwd, raw.trim()),
        engines.custom.map((engine) => engine.name),
      );
    } catch (error) {
      throw new ConfigValueError(`(${raw.trim()}) ${(error as Error).message.replace(/^ENOENT: /, "")}`);
    }
  });

  const metricsToken = read<string | null>("SIGHTLINE_METRICS_TOKEN", null, (raw) => {
    if (raw.trim().length < 16) throw new ConfigValueError("must be at least 16 characters");
    return raw.trim();
  });
  const metricsPort = read<number | null>("SIGHTLINE_METRICS_PORT", null, (raw) => parseInteger(raw, 0, 65_535));
  const metricsHost = read("SIGHTLINE_METRICS_HOST", "127.0.0.1", (raw) => raw.trim());
  const tracesEndpoint = read<string | null>("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", null, parseHttpUrl);
  const otlpEndpoint = read<string | null>("OTEL_EXPORTER_OTLP_ENDPOINT", null, parseHttpUrl);
  const serviceName = read("OTEL_SERVICE_NAME", "sightline", (raw) => raw.trim());
  const tracing =
    tracesEndpoint !== null
      ? { endpoint: tracesEndpoint, serviceName }
      : otlpEndpoint !== null
        ? { endpoint: `${otlpEndpoint.replace(/\/+$/, "")}/v1/traces`, serviceName }
        : null;

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    http: {
      host,
      port,
      publicUrl,
      bodyLimitBytes: 1024 * 1024,
      trustProxy,
      requestTimeoutMs: requestTimeoutSeconds * 1000,
      keepAliveTimeoutMs: keepAliveSeconds * 1000,
      maxConnections,
    },
    database: { ...database, poolSize },
    directDatabaseUrl: database.dialect === "postgres" ? (directUrl ?? database.url) : null,
    replicaDatabaseUrl: database.dialect === "postgres" ? replicaUrl : null,
    redisUrl,
    plans,
    rateLimits,
    requestMetering,
    secretKeys,
    webhookAllowPrivate,
    worker: { concurrency, leaseSeconds, pollMs },
    retention,
    biExport: biExportDir === null ? null : { dir: biExportDir, everyHours: biExportHours },
    engines,
    judge: judgeEngine === null ? null : { engine: judgeEngine },
    botRangesFile,
    dataDir,
    logLevel,
    shutdownTimeoutMs: shutdownSeconds * 1000,
    accounts: {
      publicUrl,
      allowedHosts,
      signupPlan,
      openSignup,
      smtp: smtpUrl === null ? null : { url: smtpUrl, from: smtpFrom },
    },
    metrics: { token: metricsToken, port: metricsPort, host: metricsHost },
    tracing,
  };
}
