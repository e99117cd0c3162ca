import { sql } from "kysely";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { randomBase62 } from "../../src/lib/ids.ts";
import { endpointOf } from "../../src/services/bi/endpoint.ts";
import { grantBi, revokeBi } from "../../src/services/bi/grants.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { listResults } from "../../src/services/results/results.ts";
import { createWorkspace, workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { POSTGRES_ADMIN_URL } from "../helpers/databases.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";

// The suites' own databases are migrated and used by a superuser, whom row-level security never
// filters. Production runs Sightline as an ordinary role that owns its tables: here it is one, with
// only CREATEROLE, owning its database, so that both the migration's path for such a role and the
// app's unfiltered reads as the tables' owner are tested as they run in production. PostgreSQL only.
describe("BI views with Sightline running as a non-superuser owner of its database (issue 28)", () => {
  const suffix = randomBase62(10).toLowerCase();
  const owner = `sl_app_${suffix}`;
  const name = `sl_test_owner_${suffix}`;
  const password = randomBase62(24);
  let url: string;
  let runtime: Runtime;
  const admin = () => new pg.Client({ connectionString: POSTGRES_ADMIN_URL });

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    try {
      await client.query(`create role ${owner} login createrole password '${password}'`);
      await client.query(`create database ${name} owner ${owner}`);
    } finally {
      await client.end();
    }
    const target = new URL(POSTGRES_ADMIN_URL);
    target.username = owner;
    target.password = password;
    target.pathname = `/${name}`;
    url = target.toString();
    runtime = await createRuntime(
      { secretKeys: [TEST_SECRET_KEY], database: { dialect: "postgres", url } },
      pino({ level: "silent" }),
    );
  });

  afterAll(async () => {
    for (const row of (await runtime?.deps.db.selectFrom("bi_grants").select("role_name").execute()) ?? []) {
      await revokeBi(runtime.deps, { role: row.role_name });
    }
    await runtime?.close();
    const client = admin();
    await client.connect();
    try {
      await client.query(`drop database if exists ${name} with (force)`);
      await client.query(`drop role if exists ${owner}`);
    } finally {
      await client.end();
    }
  });

  it("installs the views, keeps every read of the app whole, and keeps a BI role to its workspace", async () => {
    const deps = runtime.deps;
    const installed = await sql<{ owner: string }>`
      select pg_get_userbyid(c.relowner) as owner from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'bi' and c.relname = 'answers'
    `.execute(deps.db);
    expect(installed.rows).toEqual([{ owner: "sightline_bi_views" }]);
    const seeded: { workspaceId: string; projectId: string }[] = [];
    for (const brand of ["Acme", "Bravo"]) {
      const workspace = await createWorkspace(deps, { name: brand, plan: "growth" });
      const ctx = await workspaceContext(deps, workspace.id);
      const project = await createProject(ctx, {
        name: brand,
        primary_domain: `${brand.toLowerCase()}.example.com`,
        prompts: [`best CRM like ${brand}?`, "which CRM integrates with Slack?"],
      });
      const run = await runCliInProcess(["analyze", "--project", project.id, "--engines", "sandbox", "--json"], {
        DATABASE_URL: url,
      });
      expect(run.code, run.stderr).toBe(0);
      seeded.push({ workspaceId: workspace.id, projectId: project.id });
    }
    const [a, b] = seeded as [(typeof seeded)[0], (typeof seeded)[0]];

    // The app, as the tables' owner, reads every row of both workspaces despite row-level security.
    for (const s of seeded) {
      const ctx = await workspaceContext(deps, s.workspaceId);
      const listed = await listResults(ctx, { project_id: s.projectId });
      expect(listed.data.length).toBeGreaterThan(0);
    }
    const all = await deps.db
      .selectFrom("results")
      .select(["workspace_id"])
      .where("status", "=", "succeeded")
      .execute();
    expect(new Set(all.map((r) => r.workspace_id))).toEqual(new Set([a.workspaceId, b.workspaceId]));

    const role = await grantBi(deps, { workspaceId: a.workspaceId, endpoint: endpointOf(url) });
    const bi = new pg.Client({
      host: role.host,
      port: role.port,
      database: role.database,
      user: role.role,
      password: role.password,
    });
    await bi.connect();
    try {
      const seen = await bi.query<{ ws: string[]; n: number }>(
        "select array_agg(distinct workspace_id) as ws, count(*)::int as n from bi.answers",
      );
      expect(seen.rows[0]?.ws).toEqual([a.workspaceId]);
      expect(seen.rows[0]?.n).toBe(all.filter((r) => r.workspace_id === a.workspaceId).length);
      await expect(bi.query("select * from results")).rejects.toMatchObject({ code: "42501" });
    } finally {
      await bi.end();
    }
    await revokeBi(deps, { role: role.role });
  });
});
