import { createRuntime, type Runtime } from "../app/runtime.ts";
import { ConfigError, loadConfig } from "../config/config.ts";
import { configuredSecrets } from "../config/secrets.ts";
import { createLogger, type LogLevel } from "../lib/logger.ts";
import { ownValue } from "../lib/own-keys.ts";
import { Redactor } from "../lib/redact.ts";
import { AGENCY_USAGE, agencyCommand } from "./commands/agency.ts";
import { ANALYZE_USAGE, analyzeCommand } from "./commands/analyze.ts";
import { BACKUP_USAGE, backupCommand, RESTORE_USAGE, restoreCommand } from "./commands/backup.ts";
import { BI_USAGE, biCommand } from "./commands/bi.ts";
import { BOTS_USAGE, botsCommand } from "./commands/bots.ts";
import { KEY_USAGE, keyCommand } from "./commands/key.ts";
import { MCP_USAGE, mcpCommand } from "./commands/mcp.ts";
import { PARTITIONS_USAGE, partitionsCommand } from "./commands/partitions.ts";
import { REMEASURE_USAGE, remeasureCommand } from "./commands/remeasure.ts";
import { SETUP_CODE_USAGE, setupCodeCommand } from "./commands/setup-code.ts";
import { TRAFFIC_USAGE, trafficCommand } from "./commands/traffic.ts";
import { USAGE_USAGE, usageCommand } from "./commands/usage.ts";
import { USER_USAGE, userCommand } from "./commands/user.ts";
import { WORKSPACE_USAGE, workspaceCommand } from "./commands/workspace.ts";
import { describeError, type Io, UsageError } from "./io.ts";
import { runProcess } from "./serve.ts";

const USAGE = `Sightline — AI visibility platform

Usage: npm run sightline -- <command>

Processes:
  all        every part of Sightline in one process (what npm start runs)
  serve      the HTTP API only
  worker     the background worker only (analyses, monitoring schedules, webhook deliveries)
  migrate    apply pending database migrations and exit
  mcp        the MCP server over stdio, for the API key in SIGHTLINE_API_KEY (see mcp --help)

Operator commands (against DATABASE_URL):
${WORKSPACE_USAGE.replace("Usage:\n", "")}
${KEY_USAGE.replace("Usage:\n", "")}
${USAGE_USAGE.replace("Usage:\n", "")}
${ANALYZE_USAGE.replace("Usage:\n", "")}
${REMEASURE_USAGE.replace("Usage:\n", "")}
${TRAFFIC_USAGE.replace("Usage:\n", "")}
${BI_USAGE.replace("Usage:\n", "")}
${AGENCY_USAGE.replace("Usage:\n", "")}
${USER_USAGE.replace("Usage:\n", "")}
${SETUP_CODE_USAGE.replace("Usage:\n", "")}
${BACKUP_USAGE.replace("Usage:\n", "")}
${RESTORE_USAGE.replace("Usage:\n", "")}
${PARTITIONS_USAGE.replace("Usage:\n", "").split("\n\n")[0]}

Data files (no database):
${BOTS_USAGE.replace("Usage:\n", "")}

Configuration is read from the environment; see the README.`;

const PROCESS_HELP: Record<string, string> = {
  all: "Usage:\n  sightline all\nRuns every part of Sightline in one process: the HTTP API and the worker (what npm start runs).",
  serve: "Usage:\n  sightline serve\nRuns the HTTP API only, to scale it apart from background workers.",
  worker:
    "Usage:\n  sightline worker\nRuns the background worker only: analyses, monitoring schedules, reports, webhook deliveries.",
  migrate: "Usage:\n  sightline migrate\nApplies pending database migrations and exits.",
};

const COMMAND_USAGE: Record<string, string> = {
  workspace: WORKSPACE_USAGE,
  key: KEY_USAGE,
  usage: USAGE_USAGE,
  analyze: ANALYZE_USAGE,
  remeasure: REMEASURE_USAGE,
  traffic: TRAFFIC_USAGE,
  bi: BI_USAGE,
  agency: AGENCY_USAGE,
  bots: BOTS_USAGE,
  user: USER_USAGE,
  "setup-code": SETUP_CODE_USAGE,
  backup: BACKUP_USAGE,
  restore: RESTORE_USAGE,
  partitions: PARTITIONS_USAGE,
  mcp: MCP_USAGE,
};

/**
 * The help of one command, or of one of its subcommands (`key create --help`): the usage lines
 * that start with it, and the notes that follow the usage.
 */
function helpFor(command: string, sub: string | undefined): string | null {
  const processHelp = ownValue(PROCESS_HELP, command);
  if (processHelp !== undefined) return processHelp;
  const usage = ownValue(COMMAND_USAGE, command);
  if (usage === undefined) return null;
  const lines = usage.split("\n").slice(1);
  const forms = lines.filter((line) => line.startsWith("  sightline "));
  const notes = lines.filter((line) => !line.startsWith("  sightline "));
  const own =
    sub === undefined || sub.startsWith("-")
      ? forms
      : forms.filter(
          (line) => line.startsWith(`  sightline ${command} ${sub} `) || line === `  sightline ${command} ${sub}`,
        );
  return ["Usage:", ...(own.length > 0 ? own : forms), ...notes].join("\n");
}

/** Runs one command; resolves to the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    const topic = command === "help" ? args[0] : undefined;
    const help = topic === undefined ? null : helpFor(topic, args[1]);
    io.out(help ?? USAGE);
    return command === undefined ? 2 : 0;
  }
  if (args.includes("--help") || args.includes("-h")) {
    const help = helpFor(command, args[0]);
    if (help !== null) {
      io.out(help);
      return 0;
    }
  }
  try {
    // Before the configuration: it needs no database, and it may be run to write the very file
    // SIGHTLINE_BOT_RANGES_FILE names, which the configuration refuses while it is missing.
    if (command === "bots") return await botsCommand(args, io);
    const config = loadConfig(io.env, io.cwd);
    if (command === "serve" || command === "all" || command === "worker") return await runProcess(config, command);
    // They open the database themselves: a backup must not migrate what it copies, nor a restore
    // open what it is about to replace.
    if (command === "backup") return await backupCommand(config, args, io);
    if (command === "restore") return await restoreCommand(config, args, io);
    if (
      ![
        "workspace",
        "key",
        "usage",
        "analyze",
        "remeasure",
        "traffic",
        "bi",
        "agency",
        "user",
        "setup-code",
        "partitions",
        "migrate",
        "mcp",
      ].includes(command)
    ) {
      throw new UsageError(`unknown command "${command}"`);
    }
    // Operator commands keep stdout for their output; logs go to stderr, quietly.
    const level: LogLevel = io.env.LOG_LEVEL === undefined ? "warn" : config.logLevel;
    const logger = createLogger(level, 2, new Redactor(configuredSecrets(config)));
    // The MCP server's stdout is the protocol; it answers through its API key, so it has its rate limits.
    if (command === "mcp") return await mcpCommand(config, args, io, logger);
    // Operator commands answer no API requests: no rate limiter, no Redis connection.
    const runtime: Runtime = await createRuntime({ ...config, rateLimits: false, redisUrl: null }, logger);
    try {
      if (command === "migrate") {
        io.out("Database is up to date.");
        return 0;
      }
      if (command === "workspace") return await workspaceCommand(runtime.deps, args, io);
      if (command === "usage") return await usageCommand(runtime.deps, args, io);
      if (command === "analyze") return await analyzeCommand(runtime, args, io, logger);
      if (command === "remeasure") return await remeasureCommand(runtime, args, io, logger);
      if (command === "traffic") return await trafficCommand(runtime.deps, args, io);
      if (command === "bi") return await biCommand(runtime.deps, config.database, config.directDatabaseUrl, args, io);
      if (command === "agency") return await agencyCommand(runtime.deps, args, io);
      if (command === "user") return await userCommand(runtime.deps, args, io);
      if (command === "setup-code") return await setupCodeCommand(runtime.deps, args, io);
      if (command === "partitions") return await partitionsCommand(runtime.deps, args, io);
      return await keyCommand(runtime.deps, args, io);
    } finally {
      await runtime.close();
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.err(`error: ${(error as Error).message}`);
      io.err("Run `npm run sightline -- help` for usage.");
      return 2;
    }
    for (const line of describeError(error)) io.err(line);
    return 1;
  }
}
