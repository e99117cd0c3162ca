import { createReadStream } from "node:fs";
import { parseArgs } from "node:util";
import type { Deps } from "../../services/context.ts";
import { projectWorkspace } from "../../services/projects/projects.ts";
import { LOG_FORMATS, type LogFormat } from "../../services/traffic/formats/types.ts";
import { importTrafficLogs, type TrafficImport } from "../../services/traffic/import.ts";
import { workspaceContext } from "../../services/workspaces/workspaces.ts";
import { type Io, outputMode, required, UsageError } from "../io.ts";

export const TRAFFIC_USAGE = `Usage:
  sightline traffic import FILE... --project ID [--format FORMAT] [--json]
  Reads access logs (plain or gzip) for the brand: AI bot hits and AI-referred visits are counted per day and page;
  every other line is counted and dropped. FORMAT: ${LOG_FORMATS.join(", ")} (detected when left out).
  A file imported twice is recognised by its contents and counted once.`;

const options = {
  project: { type: "string" },
  format: { type: "string" },
  json: { type: "boolean" },
} as const;

const line = (file: string, r: TrafficImport) =>
  r.duplicate
    ? `${file}: already imported (${r.id}); nothing counted again`
    : `${file}: ${r.lines} lines (${r.format}): ${r.bot_hits} AI bot hits, ${r.referrals} AI referrals, ${r.ignored} other, ${r.rejected} rejected${
        r.reasons.length === 0 ? "" : ` (${r.reasons.map((x) => `${x.reason}: ${x.count}`).join("; ")})`
      }`;

/** Imports access-log files for a brand as the operator, one after the other. */
export async function trafficCommand(deps: Deps, args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "import")
    throw new UsageError(
      sub === undefined ? "traffic needs a subcommand: import" : `unknown subcommand "traffic ${sub}"`,
    );
  const { values, positionals } = parseArgs({ args: rest, options, strict: true, allowPositionals: true });
  const mode = outputMode(values);
  const projectId = required(values, "project");
  if (positionals.length === 0) throw new UsageError("traffic import needs at least one FILE");
  const format = values.format;
  if (format !== undefined && !(LOG_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${LOG_FORMATS.join(", ")}`);
  }
  const ctx = await workspaceContext(deps, await projectWorkspace(deps, projectId));
  const results: (TrafficImport & { file: string })[] = [];
  for (const file of positionals) {
    const result = await importTrafficLogs(ctx, projectId, {
      body: createReadStream(file),
      source: "cli",
      format: (format as LogFormat | undefined) ?? null,
    });
    results.push({ ...result, file });
    if (mode !== "json") io.out(line(file, result));
  }
  if (mode === "json") io.out(JSON.stringify(results, null, 2));
  return 0;
}
