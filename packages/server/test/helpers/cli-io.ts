import { AsyncLocalStorage, createHook } from "node:async_hooks";
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

/** What a command started and has not yet closed: async resources by id, with their kind. */
interface Started {
  resources: Map<number, { type: string; resource: unknown }>;
}

const commandOf = new AsyncLocalStorage<Started>();
// Records every async resource (timer, socket, request…) created while a command runs, and forgets
// it when it closes. Resources created meanwhile by anything else in this process (a test's own
// worker polling, a server answering) are not the command's and are not counted.
const tracking = createHook({
  init(asyncId, type, _trigger, resource) {
    if (type === "PROMISE") return;
    commandOf.getStore()?.resources.set(asyncId, { type, resource });
  },
  destroy(asyncId) {
    for (const started of running) started.resources.delete(asyncId);
  },
});
const running = new Set<Started>();

/**
 * Whether a resource keeps the event loop alive: a timer or handle (socket, pipe, signal…) still
 * ref'd. Requests (a file read, a DNS lookup) end by themselves and are not counted.
 */
function keepsAlive(resource: unknown): boolean {
  const hasRef = (resource as { hasRef?: () => boolean } | null)?.hasRef;
  return typeof hasRef === "function" && hasRef.call(resource);
}

/**
 * What the command left keeping this process alive, once that is nothing or two seconds have passed
 * (a closed socket takes a moment to go).
 */
async function leftRunning(started: Started): Promise<string[]> {
  const alive = () =>
    [...started.resources.values()].filter(({ resource }) => keepsAlive(resource)).map(({ type }) => type);
  let now = alive();
  for (let attempt = 0; attempt < 200 && now.length > 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    now = alive();
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
  const started: Started = { resources: new Map() };
  running.add(started);
  tracking.enable();
  let code: number;
  try {
    code = await commandOf.run(started, () => main(args, io));
    // The binary exits when its command returns only if the command left nothing running (no timer, no
    // connection): a separate process proved that by exiting, this one checks it.
    expect(await leftRunning(started), `sightline ${args.join(" ")} left something running`).toEqual([]);
  } finally {
    running.delete(started);
    if (running.size === 0) tracking.disable();
  }
  const text = (lines: string[]) => lines.map((line) => `${line}\n`).join("");
  return { code, stdout: text(io.lines), stderr: text(io.errors) };
}
