import { parseArgs } from "node:util";
import type { Deps } from "../../services/context.ts";
import { moveResults, resultsMove } from "../../services/retention/partitions.ts";
import { type Io, outputMode, UsageError } from "../io.ts";

export const PARTITIONS_USAGE = `Usage:
  sightline partitions status [--json]
  sightline partitions finish [--json]

status: whether answers live in monthly partitions (PostgreSQL), or how far their move has come.
finish: copies what is left and swaps in the partitioned table, in one short transaction. Run it
once no process of the previous release runs (docs/operations.md).`;

const options = { json: { type: "boolean" } } as const;

export async function partitionsCommand(deps: Deps, args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "status" && sub !== "finish")
    throw new UsageError(
      sub === undefined ? "partitions needs a subcommand" : `unknown subcommand "partitions ${sub}"`,
    );
  const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
  const mode = outputMode(values);
  if (sub === "finish") {
    if ((await resultsMove(deps)).state === "single-table") {
      if (mode === "json") io.out(JSON.stringify({ copied: 0, finished: true, seconds: 0 }, null, 2));
      else io.out("Answers are in one table (SQLite): nothing to move.");
      return 0;
    }
    const started = performance.now();
    const progress = await moveResults(deps, { budgetMs: Number.POSITIVE_INFINITY, finish: true });
    const seconds = (performance.now() - started) / 1000;
    if (mode === "json") io.out(JSON.stringify({ ...progress, seconds }, null, 2));
    else io.out(`Answers are in monthly partitions (${progress.copied} rows copied now, ${seconds.toFixed(1)} s).`);
    return 0;
  }
  const move = await resultsMove(deps);
  if (mode === "json") {
    io.out(JSON.stringify(move, null, 2));
    return 0;
  }
  if (move.state === "single-table") io.out("Answers are in one table (SQLite): nothing to partition.");
  else if (move.state === "partitioned") io.out(`Answers are in monthly partitions: ${move.partitions.join(", ")}.`);
  else
    io.out(
      `Answers are moving into monthly partitions: ${move.copied} rows copied since ${move.startedAt}. Run \`sightline partitions finish\` once no process of the previous release runs.`,
    );
  return 0;
}
