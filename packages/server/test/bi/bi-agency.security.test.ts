import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgency } from "../../src/services/agencies/agencies.ts";
import { createClient } from "../../src/services/agencies/clients.ts";
import { endpointOf } from "../../src/services/bi/endpoint.ts";
import { type CreatedBiRole, grantBi, listBi, revokeBi } from "../../src/services/bi/grants.ts";
import { BI_VIEW_NAMES } from "../../src/services/bi/views.ts";
import { createWorkspace } from "../../src/services/workspaces/workspaces.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { useHarness } from "../helpers/harness.ts";
import { appCounts, type Seeded, seedBrand, seedWorkspace } from "./seed.ts";

// PostgreSQL only, as bi-role.security.test.ts: an agency's BI role reads its client workspaces
// (never its pitches, never another's), decided by row-level security on every query.
const PERMISSION_DENIED = "42501";

interface Workspace {
  workspaceId: string;
  projectId: string;
}

describe("BI roles for an agency: every client's views, no pitch's and no one else's (issue 28)", () => {
  const h = useHarness("postgres");
  let agencyId: string;
  let clientA: Workspace;
  let clientB: Workspace;
  let pitch: Workspace;
  let outsider: Seeded;
  let roleAgency: CreatedBiRole;
  let roleClientA: CreatedBiRole;
  let roleOutsider: CreatedBiRole;
  const clients: pg.Client[] = [];

  const endpoint = () => {
    if (h.database.config.dialect !== "postgres") throw new Error("this suite runs on PostgreSQL");
    return endpointOf(h.database.directUrl);
  };

  /** A new client workspace of the agency, with a brand, answers and traffic. */
  async function seedClient(agency: string, name: string): Promise<Workspace> {
    const row = await createClient(h.deps, { id: agency, name: "x", role: "admin" }, { name });
    const key = await h.key(row.id);
    return { workspaceId: row.id, projectId: await seedBrand(h, { workspaceId: row.id, key }, name) };
  }

  /** A pitch workspace of the agency, with a brand, answers and traffic. */
  async function seedPitch(agency: string, name: string): Promise<Workspace> {
    const workspace = await createWorkspace(h.deps, {
      name,
      plan: "agency",
      agency: { agencyId: agency, kind: "pitch", billingAnchor: "2026-11-21" },
    });
    const key = await h.key(workspace.id);
    return { workspaceId: workspace.id, projectId: await seedBrand(h, { workspaceId: workspace.id, key }, name) };
  }

  async function connect(role: CreatedBiRole): Promise<pg.Client> {
    const client = new pg.Client({
      host: role.host,
      port: role.port,
      database: role.database,
      user: role.role,
      password: role.password,
    });
    client.on("error", () => {});
    await client.connect();
    clients.push(client);
    return client;
  }

  async function refused(client: pg.Client, query: string, code = PERMISSION_DENIED): Promise<void> {
    await expect(client.query(query), query).rejects.toMatchObject({ code });
  }

  /**
   * The session reads exactly these workspaces in every view, as many rows as the app counts for
   * them together (daily_metrics: as many answers).
   */
  async function expectReads(client: pg.Client, workspaceIds: string[]): Promise<void> {
    const want: Record<string, number> = {};
    for (const id of workspaceIds) {
      for (const [view, n] of Object.entries(await appCounts(h, id))) want[view] = (want[view] ?? 0) + n;
    }
    for (const view of BI_VIEW_NAMES) {
      const { rows } = await client.query<{ n: number; ws: string[] }>(
        `select count(*)::int as n, coalesce(array_agg(distinct workspace_id order by workspace_id), '{}') as ws
         from bi.${view}`,
      );
      expect(rows[0]?.ws, view).toEqual([...workspaceIds].sort());
      if (view !== "daily_metrics") expect(rows[0]?.n, view).toBe(want[view]);
    }
    const daily = await client.query<{ n: number }>("select coalesce(sum(answers), 0)::int as n from bi.daily_metrics");
    expect(daily.rows[0]?.n).toBe(want.answers);
  }

  beforeAll(async () => {
    await h.startWorker();
    agencyId = (await createAgency(h.deps, { name: "Northwind Agency" })).id;
    clientA = await seedClient(agencyId, "Acme");
    clientB = await seedClient(agencyId, "Bravo");
    pitch = await seedPitch(agencyId, "Prospect");
    outsider = await seedWorkspace(h, "Outsider");
    roleAgency = await grantBi(h.deps, { agencyId, endpoint: endpoint() });
    roleClientA = await grantBi(h.deps, { workspaceId: clientA.workspaceId, endpoint: endpoint() });
    roleOutsider = await grantBi(h.deps, { workspaceId: outsider.tenant.workspace.id, endpoint: endpoint() });
  });

  afterAll(async () => {
    for (const client of clients) await client.end().catch(() => {});
    // Roles are the cluster's, not the test database's: none may outlive the suite.
    for (const role of await h.deps.db.selectFrom("bi_grants").select("role_name").execute()) {
      await revokeBi(h.deps, { role: role.role_name });
    }
  });

  it("grants and lists a role by agency, and a grant names one workspace or one agency, never both", async () => {
    expect(roleAgency).toMatchObject({ object: "bi_role", agency_id: agencyId, workspace_id: null });
    expect(roleAgency.role).toMatch(/^sl_bi_[0-9a-f]{12}$/);
    expect(roleAgency.url).toContain(`@${roleAgency.host}:${roleAgency.port}/${roleAgency.database}`);
    expect(await listBi(h.deps, { agencyId })).toContainEqual({
      object: "bi_role",
      role: roleAgency.role,
      workspace_id: null,
      agency_id: agencyId,
      created_at: roleAgency.created_at,
    });
    expect(JSON.stringify(await listBi(h.deps, { agencyId }))).not.toContain(roleAgency.password);
    // A client's own workspace roles are listed by workspace; the agency's role is not one of them.
    expect((await listBi(h.deps, { workspaceId: clientA.workspaceId })).map((r) => r.role)).toEqual([roleClientA.role]);

    await expect(grantBi(h.deps, { agencyId: "agy_nope", endpoint: endpoint() })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const both = { agencyId, workspaceId: clientA.workspaceId, endpoint: endpoint() } as unknown as Parameters<
      typeof grantBi
    >[1];
    await expect(grantBi(h.deps, both)).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    // The table holds the rule too (a CHECK), and an agency's deletion takes its grant rows with it.
    const now = new Date().toISOString();
    for (const values of [
      { role_name: "sl_bi_both", workspace_id: clientA.workspaceId, agency_id: agencyId, created_at: now },
      { role_name: "sl_bi_neither", workspace_id: null, agency_id: null, created_at: now },
    ]) {
      await expect(h.deps.db.insertInto("bi_grants").values(values).execute()).rejects.toMatchObject({ code: "23514" });
    }
    const gone = (await createAgency(h.deps, { name: "Gone" })).id;
    await h.deps.db
      .insertInto("bi_grants")
      .values({ role_name: "sl_bi_orphan", workspace_id: null, agency_id: gone, created_at: now })
      .execute();
    await h.deps.db.deleteFrom("agencies").where("id", "=", gone).execute();
    expect(
      await h.deps.db.selectFrom("bi_grants").where("role_name", "=", "sl_bi_orphan").selectAll().execute(),
    ).toEqual([]);
  });

  it("reads both clients' rows in every view, as many as the app counts, and none of the pitch's or the outsider's", async () => {
    const client = await connect(roleAgency);
    for (const other of [pitch.workspaceId, outsider.tenant.workspace.id]) {
      const counts = await appCounts(h, other);
      for (const view of ["answers", "citations", "brands", "traffic_bot_hits", "traffic_referrals"]) {
        expect(counts[view], `${other} has ${view}`).toBeGreaterThan(0);
      }
    }
    await expectReads(client, [clientA.workspaceId, clientB.workspaceId]);
    // Asked for by id, the pitch's and the outsider's rows are not there either.
    for (const view of BI_VIEW_NAMES) {
      const { rows } = await client.query(`select 1 from bi.${view} where workspace_id = any($1)`, [
        [pitch.workspaceId, outsider.tenant.workspace.id],
      ]);
      expect(rows, view).toEqual([]);
    }
    const brands = await client.query("select id from bi.brands where id = any($1)", [
      [pitch.projectId, outsider.projectId],
    ]);
    expect(brands.rows).toEqual([]);
    // A filter that would raise on the pitch's rows, were it run before the policy, raises nothing.
    const crafted = await client.query(
      "select id from bi.answers where case when workspace_id = $1 then 1 / (sample - sample) = 1 else false end",
      [pitch.workspaceId],
    );
    expect(crafted.rows).toEqual([]);
  });

  it("leaves workspace roles to their one workspace, a client's included", async () => {
    await expectReads(await connect(roleClientA), [clientA.workspaceId]);
    await expectReads(await connect(roleOutsider), [outsider.tenant.workspace.id]);
  });

  it("follows the agency's clients on every query: one added is seen at once, one detached is not, a pitch only once a client", async () => {
    const agency = (await createAgency(h.deps, { name: "Contoso Agency" })).id;
    const first = await seedClient(agency, "Delta");
    const prospect = await seedPitch(agency, "Echo");
    const role = await grantBi(h.deps, { agencyId: agency, endpoint: endpoint() });
    const client = await connect(role);
    await expectReads(client, [first.workspaceId]);

    // The same open session, with nothing done to the role: the policy reads the agency's clients as they are.
    const later = await seedClient(agency, "Foxtrot");
    await expectReads(client, [first.workspaceId, later.workspaceId]);

    await h.deps.db
      .updateTable("workspaces")
      .set({ agency_id: null, agency_kind: null })
      .where("id", "=", first.workspaceId)
      .execute();
    await expectReads(client, [later.workspaceId]);

    // A pitch converted into a client (what converting it does to the workspace) is one.
    await h.deps.db
      .updateTable("workspaces")
      .set({ agency_kind: "client" })
      .where("id", "=", prospect.workspaceId)
      .execute();
    await expectReads(client, [later.workspaceId, prospect.workspaceId]);
  });

  it("is refused every base table and every write, as a workspace's role is", async () => {
    const client = await connect(roleAgency);
    for (const table of [
      "results",
      "projects",
      "workspaces",
      "agencies",
      "agency_members",
      "pitches",
      "bi_grants",
      "api_keys",
      "traffic_bot_hits",
      "traffic_referrals",
      "users",
      "sessions",
    ]) {
      await refused(client, `select * from ${table} limit 1`);
    }
    await refused(client, "select agency_id, agency_kind from workspaces limit 1");
    await refused(client, "copy results to stdout");
    await client.query("set default_transaction_read_only = off");
    await refused(client, "insert into bi.brands (id, workspace_id, name, primary_domain) values ('x', 'y', 'z', 'w')");
    await refused(client, "update bi.brands set name = 'pwned'");
    await refused(client, "delete from bi.brands");
    await refused(client, "update workspaces set agency_id = null");
    await refused(
      client,
      `insert into bi_grants (role_name, agency_id, created_at) values ('x', '${agencyId}', now())`,
    );
    await refused(client, "create table public.stolen (x int)");
    await refused(client, "create view bi.mine as select * from bi.answers");
    await refused(client, "set role sightline_bi_views");
    await client.query("set row_security = off");
    await refused(client, "select * from bi.answers");
    await client.query("reset row_security");

    // The views' owner reads the three columns of workspaces the policies need, no more.
    const { rows } = await sql<{ table: boolean; needed: boolean; name: boolean; plan: boolean }>`
      select has_table_privilege('sightline_bi_views', 'workspaces', 'SELECT') as table,
        has_column_privilege('sightline_bi_views', 'workspaces', 'id', 'SELECT')
          and has_column_privilege('sightline_bi_views', 'workspaces', 'agency_id', 'SELECT')
          and has_column_privilege('sightline_bi_views', 'workspaces', 'agency_kind', 'SELECT') as needed,
        has_column_privilege('sightline_bi_views', 'workspaces', 'name', 'SELECT') as name,
        has_column_privilege('sightline_bi_views', 'workspaces', 'plan', 'SELECT') as plan
    `.execute(h.deps.db);
    expect(rows[0]).toEqual({ table: false, needed: true, name: false, plan: false });
  });

  it("revokes an agency's role: it can no longer log in, and a session it left open reads nothing more", async () => {
    const role = await grantBi(h.deps, { agencyId, endpoint: endpoint() });
    const open = await connect(role);
    expect((await open.query("select count(*)::int as n from bi.answers")).rows[0]?.n).toBeGreaterThan(0);
    const revoked = await revokeBi(h.deps, { role: role.role });
    expect(revoked).toMatchObject({ role: role.role, agency_id: agencyId, workspace_id: null });
    expect((await listBi(h.deps, { agencyId })).map((r) => r.role)).not.toContain(role.role);
    await refused(open, "select count(*) from bi.answers");
    await expect(connect(role)).rejects.toThrow(/does not exist|password authentication failed/);
    const gone = await sql`select rolname from pg_roles where rolname = ${role.role}`.execute(h.deps.db);
    expect(gone.rows).toEqual([]);
  });

  it("runs from the command line: grant and list by --agency, export one folder per client, and --agency with --workspace refused", async () => {
    const env = { DATABASE_URL: h.database.url };
    const grant = await runCliInProcess(["bi", "grant", "--agency", agencyId], env);
    expect(grant.code, grant.stderr).toBe(0);
    expect(grant.stdout).toContain(`for agency ${agencyId}`);
    const role = /Created the read-only BI role (sl_bi_[0-9a-f]{12})/.exec(grant.stdout)?.[1];
    expect(role).toBeDefined();
    expect(grant.stdout).toMatch(new RegExp(`postgres://${role}:[^@]+@[^/]+/`));
    expect(grant.stdout).toContain("Copy the password now");

    const list = await runCliInProcess(["bi", "list", "--agency", agencyId, "--quiet"], env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.split("\n")).toContain(role);
    const granted = (await listBi(h.deps, { agencyId })).length;

    for (const args of [
      ["bi", "grant", "--agency", agencyId, "--workspace", clientA.workspaceId],
      ["bi", "list", "--agency", agencyId, "--workspace", clientA.workspaceId],
    ]) {
      const both = await runCliInProcess(args, env);
      expect(both.code, args.join(" ")).toBe(2);
      expect(both.stderr).toContain("--workspace and --agency exclude each other");
    }
    const neither = await runCliInProcess(["bi", "grant"], env);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("--workspace ID or --agency ID is required");
    expect((await listBi(h.deps, { agencyId })).length, "the refused calls granted nothing").toBe(granted);

    const dir = mkdtempSync(join(tmpdir(), "sightline-bi-agency-"));
    const exported = await runCliInProcess(["bi", "export", "--agency", agencyId, "--dir", dir, "--json"], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([clientA.workspaceId, clientB.workspaceId].sort());
    const result = JSON.parse(exported.stdout) as {
      clients: { workspace_id: string; files: { view: string; rows: number }[] }[];
    };
    for (const c of result.clients) {
      expect(c.files.map((f) => f.view)).toEqual(BI_VIEW_NAMES);
      expect(c.files.find((f) => f.view === "answers")?.rows).toBe((await appCounts(h, c.workspace_id)).answers);
      expect(readdirSync(join(dir, c.workspace_id)).sort()).toEqual(BI_VIEW_NAMES.map((v) => `${v}.csv`).sort());
    }
  });
});
