import { ApiError } from "../errors/api-error.ts";

export interface Io {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
}

export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  cwd: process.cwd(),
};

/** A mistake in how the command was called: exit code 2, with a hint. */
export class UsageError extends Error {}

export type OutputMode = "human" | "json" | "quiet";

export function outputMode(flags: { json?: boolean; quiet?: boolean }): OutputMode {
  if (flags.json === true && flags.quiet === true) throw new UsageError("--json and --quiet exclude each other");
  return flags.json === true ? "json" : flags.quiet === true ? "quiet" : "human";
}

export function required(flags: Record<string, unknown>, name: string): string {
  const value = flags[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value;
}

export function describeError(error: unknown): string[] {
  if (error instanceof ApiError) {
    return [
      `error: ${error.message}`,
      ...(error.details ?? []).filter((d) => d.field !== undefined).map((d) => `  ${d.field}: ${d.issue}`),
    ];
  }
  return [`error: ${error instanceof Error ? error.message : String(error)}`];
}

/** Left-aligned columns for human output. */
export function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}
