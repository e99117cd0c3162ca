import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { systemClock } from "../../lib/clock.ts";
import SHIPPED from "../../services/traffic/data/bot-ranges.json" with { type: "json" };
import { rangeSources, type SourceOutcome, updateBotRanges } from "../../services/traffic/ranges-update.ts";
import { type Io, outputMode, table, UsageError } from "../io.ts";

export const BOTS_USAGE = `Usage:
  sightline bots update [--output FILE] [--source BOT=URL]... [--timeout SECONDS] [--json]
  Fetches the AI bots' published address ranges from their operators and writes them, in the shape of the shipped
  list, to FILE or else to the file SIGHTLINE_BOT_RANGES_FILE names (read by Sightline when it starts). A source that
  fails keeps its previous ranges; the exit code is 1 only when none could be fetched. --source fetches one bot's
  list from another address (a mirror); --timeout bounds each source (10 s by default). Needs no database.`;

const options = {
  output: { type: "string" },
  source: { type: "string", multiple: true },
  timeout: { type: "string" },
  json: { type: "boolean" },
} as const;

/** `BOT=URL` pairs, each naming a bot Sightline knows. */
function overrides(pairs: string[]): Record<string, string> {
  const known = new Set(Object.keys(SHIPPED.bots));
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const bot = pair.slice(0, Math.max(at, 0));
    const url = pair.slice(at + 1);
    if (at <= 0 || !/^https?:\/\/\S+$/i.test(url))
      throw new UsageError(`--source takes BOT=URL (http or https), not "${pair}"`);
    if (!known.has(bot))
      throw new UsageError(`--source: "${bot}" has no published ranges (one of ${[...known].join(", ")})`);
    out[bot] = url;
  }
  return out;
}

const outcomeRow = (s: SourceOutcome): string[] =>
  s.ok
    ? [s.bot, `${s.ranges} ranges`, `${s.source}${s.published === null ? "" : ` (published ${s.published})`}`]
    : [
        s.bot,
        "failed",
        `${s.source}: ${s.reason}; kept ${s.kept === null ? "no ranges" : `${s.kept} previous ranges`}`,
      ];

/**
 * Refreshes the bots' ranges file. It runs before the configuration is loaded (main.ts): it needs
 * no database, and the file SIGHTLINE_BOT_RANGES_FILE names may not exist yet (the configuration
 * refuses a missing one). The shipped file inside the package is never written.
 */
export async function botsCommand(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "update") {
    throw new UsageError(sub === undefined ? "bots needs a subcommand: update" : `unknown subcommand "bots ${sub}"`);
  }
  const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
  const mode = outputMode(values);
  const configured = io.env.SIGHTLINE_BOT_RANGES_FILE?.trim() || undefined;
  const target = values.output ?? configured;
  if (target === undefined) {
    throw new UsageError(
      "bots update needs a file to write: --output FILE, or SIGHTLINE_BOT_RANGES_FILE (the list shipped with Sightline is not rewritten)",
    );
  }
  const timeout = values.timeout === undefined ? 10 : Number(values.timeout);
  if (!(timeout > 0 && timeout <= 300)) throw new UsageError("--timeout takes seconds, more than 0 and at most 300");
  const sources = rangeSources(overrides(values.source ?? []));
  const path = resolve(io.cwd, target);
  // What a failed source keeps: the file being replaced, else the one Sightline reads now, else the shipped list.
  const current = [path, configured === undefined ? null : resolve(io.cwd, configured)].find(
    (file): file is string => file !== null && existsSync(file),
  );
  let previous: unknown = SHIPPED;
  if (current !== undefined) {
    try {
      previous = JSON.parse(readFileSync(current, "utf8"));
      if (typeof previous !== "object" || previous === null || Array.isArray(previous)) {
        throw new Error("not a JSON object");
      }
    } catch (error) {
      io.err(`error: cannot read the ranges in ${current} (${(error as Error).message}); fix it or move it away`);
      return 1;
    }
  }
  const update = await updateBotRanges(
    { fetch: globalThis.fetch, clock: systemClock, timeoutMs: timeout * 1000 },
    previous,
    sources,
  );
  if (update.refreshed > 0) {
    // Written beside and renamed over: a reader never sees half a file.
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(update.file, null, 2)}\n`);
    renameSync(temporary, path);
  }
  if (mode === "json") {
    io.out(
      JSON.stringify(
        { file: update.refreshed > 0 ? path : null, as_of: update.file.as_of, sources: update.sources },
        null,
        2,
      ),
    );
  } else {
    for (const line of table(update.sources.map(outcomeRow))) io.out(line);
    if (update.refreshed > 0) {
      io.out(
        `Wrote ${path} (as of ${update.file.as_of}): ${update.refreshed} of ${update.sources.length} sources refreshed. Sightline reads it when it starts.`,
      );
    }
  }
  if (update.refreshed > 0) return 0;
  io.err(`error: no source could be refreshed; ${path} was left as it was`);
  return 1;
}
