import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, SIGHTLINE_ENTRY, spawnServer } from "./processes.ts";

/** Resident memory of a process, from /proc (Linux), in MB; null elsewhere. */
function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/**
 * `npm start`'s process (`sightline all`: API, worker and scheduler) on a fresh data folder, from
 * spawn to the first 200 of /healthz, and its resident memory 3 s later, idle. Three runs.
 * Goals from issue 16: 1.3 s and 147 MB (an esbuild bundle of the code as it was then).
 */
export async function startupBenchmark(): Promise<string[]> {
  const lines: string[] = [];
  const times: number[] = [];
  const memory: number[] = [];
  for (let run = 0; run < 3; run++) {
    const dir = mkdtempSync(join(tmpdir(), "sightline-startup-"));
    const port = await freePort();
    const started = performance.now();
    const server = await spawnServer(
      SIGHTLINE_ENTRY,
      ["all"],
      { SIGHTLINE_DATA_DIR: dir, PORT: String(port), LOG_LEVEL: "warn", DATABASE_URL: "" },
      { healthUrl: `http://127.0.0.1:${port}/healthz` },
    );
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rss = rssMb(server.process.pid);
    if (rss !== null) memory.push(rss);
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const range = (values: number[], digits: number) =>
    `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
  lines.push(
    `start-up of npm start (fresh data folder to the first /healthz 200): ${range(
      times.map((t) => t / 1000),
      2,
    )} s (goal 1.3 s); idle RSS ${memory.length === 0 ? "n/a" : `${range(memory, 0)} MB`} (goal 147 MB)`,
  );
  return lines;
}
