import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/app/runtime.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";
import { REPO_ROOT, runCli, type ServerProcess, startServerProcess } from "../helpers/processes.ts";

const PREVIOUS = readFileSync(join(import.meta.dirname, "../fixtures/upgrade/previous-release"), "utf8").trim();

/**
 * The previous release's server, as its commit has it: its sources exported from git into a folder
 * of their own, run on this checkout's installed packages (linked in), as `npm run sightline` runs.
 */
function previousRelease(): string {
  const dir = mkdtempSync(join(tmpdir(), "sightline-release-"));
  const archive = execFileSync("git", ["archive", "--format=tar", PREVIOUS, "package.json", "packages/server"], {
    cwd: REPO_ROOT,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"));
  symlinkSync(join(REPO_ROOT, "packages/server/node_modules"), join(dir, "packages/server/node_modules"));
  mkdirSync(join(dir, "packages/web"), { recursive: true });
  symlinkSync(join(REPO_ROOT, "packages/web/dist"), join(dir, "packages/web/dist"));
  return dir;
}

interface Load {
  targets: string[];
  requests: number;
  failures: string[];
  projects: string[];
  stop(): Promise<void>;
}

/** Clients working without pause: a brand created, an analysis queued, results and figures read, round-robin over `targets`. */
function startLoad(key: string, targets: string[]): Load {
  const load: Load = { targets, requests: 0, failures: [], projects: [], stop: async () => {} };
  let running = true;
  let turn = 0;
  // Each request goes to the next target, as a balancer sends it.
  const call = async (method: string, path: string, body?: unknown) => {
    const base = load.targets[turn++ % load.targets.length] as string;
    load.requests++;
    try {
      const response = await fetch(new URL(path, base), {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (response.status >= 300)
        load.failures.push(`${method} ${path} on ${base}: ${response.status} ${text.slice(0, 200)}`);
      return response.status < 300 ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch (error) {
      load.failures.push(`${method} ${path} on ${base}: ${(error as Error).message}`);
      return null;
    }
  };
  const client = async (n: number) => {
    let i = 0;
    while (running) {
      i++;
      const project = await call("POST", "/v1/projects", {
        name: `Brand ${n}-${i}`,
        primary_domain: `brand-${n}-${i}.example.com`,
        prompts: ["best crm for startups", "crm with the best api"],
        engines: ["sandbox"],
      });
      if (project === null) continue;
      load.projects.push(String(project.id));
      await call("POST", "/v1/analyze", { project_id: project.id });
      await call("GET", "/v1/results?limit=5");
      await call("GET", `/v1/projects/${String(project.id)}/metrics`);
    }
  };
  const clients = [0, 1, 2].map(client);
  load.stop = async () => {
    running = false;
    await Promise.all(clients);
  };
  return load;
}

/** What a migration may not do while the previous release still serves: it would break it. */
const CONTRACTING = [
  /\.dropColumn\(/,
  /\.dropTable\(/,
  /\.renameColumn\(/,
  /\.renameTo\(/,
  /\.setNotNull\(/,
  /\.dropConstraint\(/,
  /\bdrop\s+(column|table)\b/i,
  /\brename\s+(column|to)\b/i,
  /\bset\s+not\s+null\b/i,
];

describe("migrations since the previous release", () => {
  it("only expand the schema, or say which release stopped using what they remove (`// contract:`)", () => {
    const dir = "packages/server/src/db/migrations";
    const before = new Set(
      execFileSync("git", ["ls-tree", "--name-only", `${PREVIOUS}:${dir}`], { cwd: REPO_ROOT })
        .toString()
        .split("\n")
        .filter(Boolean),
    );
    const now = readdirSync(join(REPO_ROOT, dir));
    const added = now.filter((name) => !before.has(name) && name !== "index.ts");
    const offending = added.flatMap((name) => {
      const source = readFileSync(join(REPO_ROOT, dir, name), "utf8");
      if (source.includes("// contract:")) return [];
      return CONTRACTING.filter((pattern) => pattern.test(source)).map((pattern) => `${name}: ${pattern.source}`);
    });
    expect(before.size).toBeGreaterThan(20);
    expect(offending).toEqual([]);
  });
});

/**
 * A rolling upgrade: the previous release serves (API and worker) while this release's migrations
 * run, then both releases serve side by side on one database, then the previous one is drained and
 * stopped. Not one request may fail, and every analysis either release accepted is finished.
 */
describe.each(DIALECTS)("a rolling upgrade from the previous release [%s]", (dialect) => {
  let db: TestDatabase;
  let oldRoot: string;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    oldRoot = previousRelease();
  });
  afterAll(async () => {
    for (const server of servers) {
      if (server.child.exitCode === null) server.child.kill("SIGTERM");
      await server.exited;
    }
    rmSync(oldRoot, { recursive: true, force: true });
    await db.drop();
  });

  it("serves without one failed request while the schema is migrated and the releases overlap", async () => {
    // The clients send far more than a plan's per-minute allowance: rate limits are not what this is about.
    const env = {
      DATABASE_URL: db.url,
      SIGHTLINE_SECRET_KEY: TEST_SECRET_KEY.toString("base64"),
      SIGHTLINE_RATE_LIMITS: "off",
    };
    const old = await startServerProcess(env, "all", oldRoot);
    servers.push(old);
    const workspace = await runCli(
      ["workspace", "create", "--name", "Upgrade", "--plan", "agency", "--quiet"],
      env,
      oldRoot,
    );
    expect(workspace.code, workspace.stderr).toBe(0);
    const key = await runCli(
      [
        "key",
        "create",
        "--workspace",
        workspace.stdout.trim(),
        "--name",
        "k",
        "--scopes",
        "projects,analyze,results",
        "--quiet",
      ],
      env,
      oldRoot,
    );
    expect(key.code, key.stderr).toBe(0);

    const load = startLoad(key.stdout.trim(), [old.url]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // The expand step: this release's migrations, while the previous release serves.
      const migrated = await runCli(["migrate"], env);
      expect(migrated.code, migrated.stderr).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // Both releases serve (and run jobs) side by side.
      const next = await startServerProcess(env, "all");
      servers.push(next);
      load.targets.push(next.url);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      // The balancer stops sending to the previous release (a moment for requests it already
      // routed there to arrive), which then drains and stops.
      load.targets.splice(load.targets.indexOf(old.url), 1);
      await new Promise((resolve) => setTimeout(resolve, 250));
      old.child.kill("SIGTERM");
      expect(await old.exited).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      await load.stop();
    }
    console.log(
      `[${dialect}] rolling upgrade from ${PREVIOUS.slice(0, 7)}: ${load.requests} requests, ${load.failures.length} failed`,
    );
    expect(load.failures).toEqual([]);
    expect(load.projects.length).toBeGreaterThan(10);

    // Every analysis either release accepted is finished, by whichever worker took it.
    const runtime = await createRuntime(
      { database: db.config, secretKeys: [TEST_SECRET_KEY] },
      pino({ level: "silent" }),
    );
    try {
      const deadline = Date.now() + 30_000;
      let open = Number.POSITIVE_INFINITY;
      while (open > 0 && Date.now() < deadline) {
        const rows = await runtime.deps.db
          .selectFrom("analyses")
          .select("id")
          .where("status", "!=", "completed")
          .execute();
        open = rows.length;
        if (open > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(open).toBe(0);
      const analyses = await runtime.deps.db.selectFrom("analyses").select("id").execute();
      expect(analyses.length).toBe(load.projects.length);
      const answers = await runtime.deps.db.selectFrom("results").select("id").execute();
      expect(answers.length).toBe(2 * analyses.length);
    } finally {
      await runtime.close();
    }
  }, 120_000);
});
