import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pino from "pino";
import { createRuntime } from "../src/app/runtime.ts";
import { createProject } from "../src/services/projects/projects.ts";
import { BotRanges } from "../src/services/traffic/ranges.ts";
import { createWorkspace, workspaceContext } from "../src/services/workspaces/workspaces.ts";
import { addressIn, random, writeLog } from "./access-log.ts";

/**
 * Peak memory of `sightline traffic import` on a ~1 GB log against a ~100 MB one (issue 26):
 * `node --import tsx packages/server/scripts/traffic-rss.ts [--sizes 100,1000]` (MB). Each log is
 * generated in a temporary folder, imported by the CLI in a child process into a fresh SQLite
 * database, and the child's peak RSS is read from `/usr/bin/time -v` (or, without it, from the
 * child's own `process.resourceUsage()`). The folder is deleted at the end.
 *
 * The logs (scripts/access-log.ts) are the same site's month at two volumes: 30 days, 2,000 pages.
 * `--days N` and `--pages N` change the period and the site's size (so the number of distinct
 * daily rows); `--heap MB` runs the CLI with `--max-old-space-size=MB`.
 */
const REPO_ROOT = resolve(import.meta.dirname, "../../..");
const ENTRY = "packages/server/src/bin/sightline.ts";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "100,1000" },
    heap: { type: "string" },
    days: { type: "string", default: "30" },
    pages: { type: "string", default: "2000" },
  },
});
const shape = { days: Number(values.days), pages: Number(values.pages) };
const heap = values.heap === undefined ? [] : [`--max-old-space-size=${Number(values.heap)}`];
const sizes = (values.sizes ?? "").split(",").map((mb) => Number(mb) * 1e6);

interface Run {
  peakKb: number;
  seconds: number;
  lines: number;
  botHits: number;
  referrals: number;
}

/** `sightline traffic import FILE` in a child process, with its peak RSS in kB. */
function importInChild(file: string, projectId: string, env: Record<string, string>): Promise<Run> {
  const timeBinary = "/usr/bin/time";
  const viaTime = existsSync(timeBinary);
  // Without GNU time, the child reports its own peak (kB on Linux) as it exits.
  const report =
    "data:text/javascript,process.on('exit',()=>process.stderr.write('PEAK_RSS_KB '+process.resourceUsage().maxRSS+'\\n'))";
  const node = [process.execPath, ...heap, ...(viaTime ? [] : ["--import", report]), "--import", "tsx", ENTRY];
  const args = [...node, "traffic", "import", file, "--project", projectId, "--json"];
  const [command = "", ...rest] = viaTime ? [timeBinary, "-v", ...args] : args;
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(command, rest, { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("exit", (code) => {
      const seconds = (performance.now() - started) / 1000;
      const peak = /Maximum resident set size \(kbytes\): (\d+)|PEAK_RSS_KB (\d+)/.exec(stderr);
      if (code !== 0 || peak === null) {
        fail(new Error(`the import failed (exit ${code}):\n${stderr.slice(-2000)}`));
        return;
      }
      const [result] = JSON.parse(stdout) as { lines: number; bot_hits: number; referrals: number }[];
      done({
        peakKb: Number(peak[1] ?? peak[2]),
        seconds,
        lines: result?.lines ?? 0,
        botHits: result?.bot_hits ?? 0,
        referrals: result?.referrals ?? 0,
      });
    });
  });
}

interface Fresh {
  /** All the environment the CLI is run with. */
  env: Record<string, string>;
  projectId: string;
  /** The daily rows the import wrote. */
  rows(): number;
}

/** A fresh SQLite database with one brand, in `dir`. */
async function freshDatabase(dir: string): Promise<Fresh> {
  const path = join(dir, "sightline.db");
  const database = { dialect: "sqlite" as const, path };
  const runtime = await createRuntime({ database, dataDir: dir }, pino({ level: "silent" }));
  let projectId: string;
  try {
    const workspace = await createWorkspace(runtime.deps, { name: "RSS", plan: "agency" });
    const ctx = await workspaceContext(runtime.deps, workspace.id);
    projectId = (
      await createProject(ctx, { name: "Acme", primary_domain: "acme.example", prompts: ["best docs tool?"] })
    ).id;
  } finally {
    await runtime.close();
  }
  return {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? dir,
      DATABASE_URL: `sqlite:${path}`,
      SIGHTLINE_DATA_DIR: dir,
    },
    projectId,
    // Read straight from the file: the CLI may have migrated it further than this process knows.
    rows: () => {
      const db = new Database(path, { readonly: true });
      try {
        const count = (table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
        return count("traffic_bot_hits") + count("traffic_referrals");
      } finally {
        db.close();
      }
    },
  };
}

const count = (n: number) => Math.round(n).toLocaleString("en-US");

/** Generates a log of about `bytes`, imports it into a fresh database, and answers the figures. */
async function measure(dir: string, bytes: number) {
  const sizeDir = mkdtempSync(join(dir, "run-"));
  try {
    const file = join(sizeDir, "access.log");
    const generated = writeLog(file, bytes, shape);
    const fresh = await freshDatabase(sizeDir);
    const run = await importInChild(file, fresh.projectId, fresh.env);
    if (run.lines !== generated) throw new Error(`generated ${generated} lines, imported ${run.lines}`);
    return { ...run, megabytes: statSync(file).size / 1e6, rows: fresh.rows() };
  } finally {
    rmSync(sizeDir, { recursive: true, force: true });
  }
}

const dir = mkdtempSync(join(tmpdir(), "sightline-rss-"));
try {
  // The generated bots' addresses must verify against the shipped ranges, or the mix is not what it says.
  if (BotRanges.load().verify("GPTBot", addressIn("GPTBot", random(1))) !== "verified") {
    throw new Error("the generated GPTBot addresses are outside the shipped ranges");
  }
  // The CLI importing a few lines: what the process costs before any log.
  const alone = await measure(dir, 2_000);
  console.log(
    `process alone (${alone.lines} lines): peak RSS ${(alone.peakKb / 1024).toFixed(0)} MiB, ${alone.seconds.toFixed(1)} s`,
  );
  for (const bytes of sizes) {
    const run = await measure(dir, bytes);
    console.log(
      `${run.megabytes.toFixed(0)} MB, ${count(run.lines)} lines (${count(run.botHits)} AI bot hits, ${count(run.referrals)} AI referrals; ${count(run.rows)} daily rows written): peak RSS ${(run.peakKb / 1024).toFixed(0)} MiB, ${run.seconds.toFixed(1)} s, ${count(run.lines / run.seconds)} lines/s (the process's start included)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
