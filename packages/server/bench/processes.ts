import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";

const REPO_ROOT = resolve(import.meta.dirname, "../../..");

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The servers measured run what `npm start` runs: the compiled bundle (`npm run bench` builds it
 * first), not the sources through a loader.
 */
export const SIGHTLINE_ENTRY = "packages/server/dist/bin/sightline.mjs";

/** Either a line on stdout carrying the address, or a health URL to poll. */
export type Readiness = { stdout: RegExp } | { healthUrl: string };

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** Spawns an entry point (TypeScript through tsx, or compiled JavaScript) and waits until it is ready to take load. */
export function spawnServer(
  entry: string,
  args: string[],
  env: Record<string, string>,
  ready: Readiness,
): Promise<Child> {
  return new Promise((done, fail) => {
    // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles every server the bench starts.
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "");
    const loader = entry.endsWith(".ts") ? ["--import", "tsx"] : ["--enable-source-maps"];
    const child = spawn(process.execPath, [...nodeArgs, ...loader, entry, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let settled = false;
    const stop = () =>
      new Promise<void>((stopped) => {
        const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
        child.once("exit", () => {
          clearTimeout(kill);
          stopped();
        });
        child.kill("SIGTERM");
      });
    const succeed = (url: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done({ url, process: child, stop });
    };
    const timer = setTimeout(() => {
      settled = true;
      child.kill("SIGKILL");
      fail(new Error(`${entry} was not ready after 30 s:\n${output}`));
    }, 30_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if ("stdout" in ready) {
        const match = ready.stdout.exec(output);
        if (match?.[1] !== undefined) succeed(match[1]);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fail(new Error(`${entry} exited with ${code}:\n${output}`));
    });
    if ("healthUrl" in ready) {
      const poll = async () => {
        while (!settled) {
          try {
            const response = await fetch(ready.healthUrl);
            if (response.ok) return succeed(new URL(ready.healthUrl).origin);
          } catch {
            // not listening yet
          }
          await new Promise((resolveWait) => setTimeout(resolveWait, 100));
        }
      };
      void poll();
    }
  });
}
