import { parseArgs } from "node:util";
import { needsSetup } from "../../services/accounts/signup.ts";
import type { Deps } from "../../services/context.ts";
import { type Io, outputMode } from "../io.ts";

export const SETUP_CODE_USAGE = `Usage:
  sightline setup-code [--json | --quiet]
The code the dashboard's first page asks for to create the first account (the server prints it at start too).`;

export async function setupCodeCommand(deps: Deps, args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: "boolean" }, quiet: { type: "boolean" } },
    strict: true,
    allowPositionals: false,
  });
  const mode = outputMode(values);
  const pending = await needsSetup(deps);
  if (mode === "json") {
    io.out(JSON.stringify({ needs_setup: pending, setup_code: pending ? deps.setupCode : null }, null, 2));
    return 0;
  }
  if (mode === "quiet") {
    if (pending) io.out(deps.setupCode);
    return pending ? 0 : 1;
  }
  io.out(
    pending
      ? `Setup code: ${deps.setupCode}\n\nOpen ${deps.publicUrl} and create the first account with it; it is asked for once.`
      : "Sightline is set up: its first account exists, and the setup code is no longer used. Invite people from Settings → Members, or create accounts with `sightline user create`.",
  );
  return 0;
}
