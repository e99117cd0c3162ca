import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/app/runtime.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { runCli } from "../helpers/processes.ts";

/**
 * The commands run in this process through `main`, the function the binary calls; starting a Node
 * process per command cost most of this file's time. The binary itself is run once, at the end.
 */
describe.each(DIALECTS)("operator CLI [%s]", (dialect) => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const run = (args: string[]) => runCliInProcess(args, env);
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    env = { DATABASE_URL: db.url };
  });
  afterAll(async () => db.drop());

  it("creates a workspace, a key, lists and revokes it, with JSON output", async () => {
    const ws = await run(["workspace", "create", "--name", "Acme", "--plan", "growth", "--json"]);
    expect(ws.code, ws.stderr).toBe(0);
    const workspace = JSON.parse(ws.stdout);
    expect(workspace).toMatchObject({ name: "Acme", plan: "growth" });
    expect(workspace.id).toMatch(/^ws_/);

    const created = await run([
      "key",
      "create",
      "--workspace",
      workspace.id,
      "--name",
      "laptop",
      "--scopes",
      "read,projects",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ name: "laptop", scopes: ["read", "projects"], status: "active" });
    expect(key.id).toMatch(/^key_/);
    expect(key.key).toMatch(/^sl_live_/);
    expect(Date.parse(key.expires_at) - Date.parse(key.created_at)).toBe(365 * 86_400_000);

    const list = await run(["key", "list", "--workspace", workspace.id, "--json"]);
    const listed = JSON.parse(list.stdout);
    expect(listed.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect(list.stdout).not.toContain(key.key.slice(12));

    const human = await run(["key", "list", "--workspace", workspace.id]);
    expect(human.stdout).toContain("laptop");
    expect(human.stdout).not.toContain(key.key.slice(12));

    const revoked = await run(["key", "revoke", "--key", key.id, "--json"]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout).status).toBe("revoked");

    const plan = await run(["workspace", "set-plan", "--workspace", workspace.id, "--plan", "agency", "--json"]);
    expect(JSON.parse(plan.stdout).plan).toBe("agency");
  });

  it("prints only the value with --quiet, for scripts", async () => {
    const ws = await run(["workspace", "create", "--name", "Quiet", "--plan", "agency", "--quiet"]);
    expect(ws.stdout.trim()).toMatch(/^ws_[0-9A-Za-z]{24}$/);
    const key = await run([
      "key",
      "create",
      "--workspace",
      ws.stdout.trim(),
      "--name",
      "k",
      "--scopes",
      "read",
      "--quiet",
    ]);
    expect(key.stdout.trim()).toMatch(/^sl_live_[0-9A-Za-z]{32}$/);
  });

  it("runs an analysis and waits for its summary", async () => {
    const ws = (await run(["workspace", "create", "--name", "Analyst", "--plan", "growth", "--quiet"])).stdout.trim();
    const runtime = await createRuntime({ database: db.config }, pino({ level: "silent" }));
    let projectId: string;
    try {
      const ctx = await workspaceContext(runtime.deps, ws);
      projectId = (
        await createProject(ctx, { name: "Acme", primary_domain: "acme.io", prompts: ["best tool?", "cheapest tool?"] })
      ).id;
    } finally {
      await runtime.close();
    }
    const json = await run(["analyze", "--project", projectId, "--engines", "sandbox", "--samples", "2", "--json"]);
    expect(json.code, json.stderr).toBe(0);
    const analysis = JSON.parse(json.stdout);
    expect(analysis).toMatchObject({ status: "completed", trigger: "cli", progress: { total: 4, succeeded: 4 } });
    expect(analysis.summary.overall.answers).toBe(4);
    const human = await run(["analyze", "--project", projectId, "--engines", "sandbox"]);
    expect(human.stdout).toContain("VISIBILITY");
    // Both analyses' answers (4 + 2) in the period's usage, with what the sandbox costs: nothing.
    const usage = await run(["usage", "show", "--workspace", ws]);
    expect(usage.code, usage.stderr).toBe(0);
    expect(usage.stdout).toContain("Vendor cost: $0.0000 for 6 answers (finished analyses)");
    expect(usage.stdout).toMatch(/sandbox\s+6\s+\d+\s+\d+\s+0\.0000/);
    const missing = await run(["analyze", "--project", "prj_nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No project with id 'prj_nope'");
  });

  it("says where the answers live: one table on SQLite, monthly partitions on PostgreSQL", async () => {
    const status = await run(["partitions", "status", "--json"]);
    expect(status.code, status.stderr).toBe(0);
    const layout = JSON.parse(status.stdout) as { state: string; partitions?: string[] };
    if (dialect === "sqlite") expect(layout).toEqual({ state: "single-table" });
    else {
      const month = new Date().toISOString().slice(0, 7).replace("-", "_");
      expect(layout.state).toBe("partitioned");
      expect(layout.partitions).toContain(`results_${month}`);
    }
    // On a database already partitioned (or SQLite), finishing is a no-op that says so.
    const finish = await run(["partitions", "finish"]);
    expect(finish.code, finish.stderr).toBe(0);
    expect(finish.stdout).toContain(dialect === "sqlite" ? "nothing to move" : "0 rows copied now");
  });

  it("explains errors and exits non-zero", async () => {
    const cases: [string[], number, string][] = [
      [
        ["workspace", "create", "--name", "X", "--plan", "platinum"],
        1,
        "plan: must be one of free, starter, growth, agency",
      ],
      [["workspace", "create", "--plan", "growth"], 2, "--name is required"],
      [["workspace", "set-plan", "--workspace", "ws_nope", "--plan", "growth"], 1, "No workspace with id 'ws_nope'"],
      [
        ["key", "create", "--workspace", "ws_nope", "--name", "k", "--scopes", "read"],
        1,
        "No workspace with id 'ws_nope'",
      ],
      [["key", "create", "--workspace", "ws_x", "--name", "k", "--scopes", "read,admin"], 1, "unknown scope 'admin'"],
      [["key", "revoke", "--key", "key_nope"], 1, "No API key with id 'key_nope'"],
      [["key", "frobnicate"], 2, 'unknown subcommand "key frobnicate"'],
      [["workspace", "create", "--name", "X", "--plan", "growth", "--colour", "red"], 2, "--colour"],
      [["teleport"], 2, 'unknown command "teleport"'],
    ];
    // One after the other: in one process, a SQLite connection waiting for another's write lock blocks the
    // event loop (see migrations.test.ts, which starts separate processes at once instead).
    for (const [args, code, message] of cases) {
      const result = await run(args);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(code);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe("");
    }
  });
});

describe("the sightline binary", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
  });
  afterAll(async () => db.drop());

  it("runs a command in its own process: output on stdout, errors on stderr, the exit code", async () => {
    const env = { DATABASE_URL: db.url };
    const [created, failed] = await Promise.all([
      runCli(["workspace", "create", "--name", "Spawned", "--plan", "growth", "--json"], env),
      runCli(["workspace", "set-plan", "--workspace", "ws_nope", "--plan", "growth"], env),
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: "Spawned", plan: "growth" });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("No workspace with id 'ws_nope'");
    expect(failed.stdout).toBe("");
  });
});
