import { expect } from "vitest";
import type { Io } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { type CliResult, REPO_ROOT } from "./processes.ts";

/** An Io that keeps what a command prints; `env` is all the environment the command sees. */
function testIo(env: Record<string, string> = {}): Io & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    errors,
    out: (line) => lines.push(line),
    err: (line) => errors.push(line),
    env,
    cwd: REPO_ROOT,
  };
}

/** The kinds of what keeps this process's event loop alive (sockets, timers…). */
const keptAlive = (): string[] => process.getActiveResourcesInfo();

/**
 * What keeps this process alive that did not `before`, once that is nothing or two seconds have passed (a
 * closed socket takes a moment to go; what was running before may have ended meanwhile).
 */
async function keptAliveSince(before: string[]): Promise<string[]> {
  const added = () => {
    const left = [...before];
    return keptAlive().filter((kind) => {
      const index = left.indexOf(kind);
      if (index === -1) return true;
      left.splice(index, 1);
      return false;
    });
  };
  let now = added();
  for (let attempt = 0; attempt < 200 && now.length > 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    now = added();
  }
  return now;
}

/**
 * Runs `sightline <args>` in this process, through the same `main` the binary calls, and answers
 * what the binary would have written: each line followed by a newline, as `processIo` writes them.
 * Commands run one at a time. The binary itself is run by `runCli`, once, in the CLI test.
 */
export async function runCliInProcess(args: string[], env: Record<string, string>): Promise<CliResult> {
  const io = testIo(env);
  const before = keptAlive();
  const code = await main(args, io);
  // The binary exits when its command returns only if the command left nothing running (no timer, no
  // connection): a separate process proved that by exiting, this one checks it.
  expect(await keptAliveSince(before), `sightline ${args.join(" ")} left something running`).toEqual([]);
  const text = (lines: string[]) => lines.map((line) => `${line}\n`).join("");
  return { code, stdout: text(io.lines), stderr: text(io.errors) };
}
