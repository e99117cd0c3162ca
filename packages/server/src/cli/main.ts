import { createRuntime, type Runtime } from "../app/runtime.ts";
import { ConfigError, loadConfig } from "../config/config.ts";
import { createLogger, type LogLevel } from "../lib/logger.ts";
import { ANALYZE_USAGE, analyzeCommand } from "./commands/analyze.ts";
import { KEY_USAGE, keyCommand } from "./commands/key.ts";
import { USAGE_USAGE, usageCommand } from "./commands/usage.ts";
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

Operator commands (against DATABASE_URL):
${WORKSPACE_USAGE.replace("Usage:\n", "")}
${KEY_USAGE.replace("Usage:\n", "")}
${USAGE_USAGE.replace("Usage:\n", "")}
${ANALYZE_USAGE.replace("Usage:\n", "")}

Configuration is read from the environment; see the README.`;

/** Runs one command; resolves to the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  try {
    const config = loadConfig(io.env, io.cwd);
    if (command === "serve" || command === "all" || command === "worker") return await runProcess(config, command);
    if (!["workspace", "key", "usage", "analyze", "migrate"].includes(command)) {
      throw new UsageError(`unknown command "${command}"`);
    }
    // Operator commands keep stdout for their output; logs go to stderr, quietly.
    const level: LogLevel = io.env.LOG_LEVEL === undefined ? "warn" : config.logLevel;
    const logger = createLogger(level, 2);
    // Operator commands answer no API requests: no rate limiter, no Redis connection.
    const runtime: Runtime = await createRuntime({ ...config, rateLimits: false }, logger);
    try {
      if (command === "migrate") {
        io.out("Database is up to date.");
        return 0;
      }
      if (command === "workspace") return await workspaceCommand(runtime.deps, args, io);
      if (command === "usage") return await usageCommand(runtime.deps, args, io);
      if (command === "analyze") return await analyzeCommand(runtime, args, io, logger);
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
