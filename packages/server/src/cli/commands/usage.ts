import { parseArgs } from "node:util";
import type { Deps } from "../../services/context.ts";
import { getUsage } from "../../services/usage/usage.ts";
import { workspaceContext } from "../../services/workspaces/workspaces.ts";
import { type Io, outputMode, required, table, UsageError } from "../io.ts";

export const USAGE_USAGE = `Usage:
  sightline usage show --workspace ID [--json]`;

const options = { workspace: { type: "string" }, json: { type: "boolean" } } as const;

export async function usageCommand(deps: Deps, args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "show")
    throw new UsageError(sub === undefined ? "usage needs a subcommand" : `unknown subcommand "usage ${sub}"`);
  const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
  const mode = outputMode(values);
  const ctx = await workspaceContext(deps, required(values, "workspace"));
  // The operator's view: no request of theirs is in a rate-limit window.
  const usage = await getUsage(ctx, null);
  if (mode === "json") {
    io.out(JSON.stringify(usage, null, 2));
    return 0;
  }
  io.out(
    `Workspace ${usage.workspace_id} (${usage.plan}), period ${usage.period.start.slice(0, 10)} to ${usage.period.end.slice(0, 10)}`,
  );
  io.out(`Credits: ${usage.credits.used} used of ${usage.credits.allowance}, ${usage.credits.remaining} left`);
  for (const line of table([
    ["ENGINE", "CREDITS"],
    ...Object.entries(usage.credits.by_engine).map(([e, n]) => [e, String(n)]),
    ...(usage.credits.judge > 0 ? [["(judge)", String(usage.credits.judge)]] : []),
  ])) {
    io.out(`  ${line}`);
  }
  const cost = usage.cost.period;
  io.out(`Vendor cost: $${cost.total.toFixed(4)} for ${cost.answers} answers (finished analyses)`);
  if (cost.answers > 0) {
    for (const line of table([
      ["ENGINE", "ANSWERS", "TOKENS", "SEARCHES", "COST (USD)"],
      ...Object.entries(cost.by_engine).map(([e, c]) => [
        e,
        String(c.answers),
        String(c.input_tokens + c.output_tokens),
        String(c.search_calls),
        c.cost.toFixed(4),
      ]),
    ])) {
      io.out(`  ${line}`);
    }
  }
  io.out(`Requests: ${usage.requests.total}`);
  for (const line of table([
    ["ENDPOINT", "REQUESTS"],
    ...Object.entries(usage.requests.by_endpoint).map(([e, n]) => [e, String(n)]),
  ])) {
    io.out(`  ${line}`);
  }
  return 0;
}
