import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";

export const REPO_ROOT = resolve(import.meta.dirname, "../../../..");
const ENTRY = "packages/server/src/bin/sightline.ts";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `sightline <args>` as a separate process, the way `npm run sightline --` does. */
export function runCli(args: string[], env: Record<string, string> = {}, root = REPO_ROOT): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY, ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** A free port on 127.0.0.1, for a server whose public URL (SIGHTLINE_PUBLIC_URL) must be known before it starts. */
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

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
  /** The setup code the server printed at start, for the first account (waits for the line). */
  setupCode(): Promise<string>;
}

function printedSetupCode(output: () => string): Promise<string> {
  return new Promise((done, fail) => {
    const started = Date.now();
    const look = () => {
      const match = /"setup_code":"([0-9A-Z-]+)"/.exec(output());
      if (match?.[1] !== undefined) return done(match[1]);
      if (Date.now() - started > 10_000) return fail(new Error(`no setup code printed:\n${output()}`));
      setTimeout(look, 20);
    };
    look();
  });
}

/** Starts `sightline worker` and resolves once it runs. */
export function startWorkerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY, "worker"], {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<number | null>((resolveExit) => child.on("exit", (code) => resolveExit(code)));
    const timer = setTimeout(() => fail(new Error(`worker did not start:\n${output}`)), 20_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Sightline worker")) {
        clearTimeout(timer);
        done({ child, url: "", output: () => output, exited, setupCode: () => printedSetupCode(() => output) });
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  });
}

/** Starts `sightline <mode>` on a free port and resolves once it listens. */
export function startServerProcess(
  env: Record<string, string>,
  mode = "all",
  /** Another tree of Sightline's (an earlier release's, test/operations/upgrade.test.ts). */
  root = REPO_ROOT,
): Promise<ServerProcess> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY, mode], {
      cwd: root,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<number | null>((resolveExit) => child.on("exit", (code) => resolveExit(code)));
    const timer = setTimeout(() => fail(new Error(`server did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match?.[1] !== undefined && output.includes("Sightline listening")) {
        clearTimeout(timer);
        done({
          child,
          url: match[1],
          output: () => output,
          exited,
          setupCode: () => printedSetupCode(() => output),
        });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}
