import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/app/runtime.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";

describe.each(DIALECTS)("sightline remeasure [%s]", (dialect) => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const run = (args: string[]) => runCliInProcess(args, env);
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    env = { DATABASE_URL: db.url };
  });
  afterAll(async () => db.drop());

  it("queues a re-measure, or works on it and prints its progress with --wait", async () => {
    const ws = (await run(["workspace", "create", "--name", "Remeasure", "--plan", "growth", "--quiet"])).stdout.trim();
    const runtime = await createRuntime({ database: db.config }, pino({ level: "silent" }));
    let projectId: string;
    try {
      const ctx = await workspaceContext(runtime.deps, ws);
      projectId = (
        await createProject(ctx, {
          name: "Acme",
          primary_domain: "acme.io",
          competitors: [{ name: "Globex" }],
          prompts: ["best tool?", "cheapest tool?"],
        })
      ).id;
    } finally {
      await runtime.close();
    }
    const analysis = await run(["analyze", "--project", projectId, "--engines", "sandbox", "--samples", "3", "--json"]);
    expect(analysis.code, analysis.stderr).toBe(0);

    const waited = await run(["remeasure", "--project", projectId, "--wait"]);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toMatch(/^Queued rem_\w+ \(6 answers\); working…/);
    expect(waited.stdout).toMatch(/Re-measure rem_\w+: completed, 6 of 6 answers/);

    const queued = await run(["remeasure", "--project", projectId, "--from", "2020-01-01", "--json"]);
    expect(queued.code, queued.stderr).toBe(0);
    expect(JSON.parse(queued.stdout)).toMatchObject({ object: "remeasure", status: "queued", total: 6 });
    // One at a time: the queued one waits for a worker.
    const second = await run(["remeasure", "--project", projectId]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("is already queued or running");

    const bad = await run(["remeasure", "--project", projectId, "--from", "soon"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("from: must be an ISO 8601 date");
    const missing = await run(["remeasure", "--project", "prj_nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No project with id 'prj_nope'");
  });
});
