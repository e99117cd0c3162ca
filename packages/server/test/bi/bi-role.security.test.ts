import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointOf } from "../../src/services/bi/endpoint.ts";
import { exportBi } from "../../src/services/bi/export.ts";
import { type CreatedBiRole, grantBi, listBi, revokeBi } from "../../src/services/bi/grants.ts";
import { scramVerifier } from "../../src/services/bi/scram.ts";
import { BI_VIEW_NAMES, BI_VIEWS } from "../../src/services/bi/views.ts";
import { useHarness } from "../helpers/harness.ts";
import { readCsv } from "./csv.ts";
import { appCounts, type Seeded, seedWorkspace } from "./seed.ts";

// PostgreSQL only: the BI role is a PostgreSQL login role, isolated by its row-level security. SQLite
// has no roles; its export is tested in bi-export.test.ts on both dialects.
const PERMISSION_DENIED = "42501";

/** Values as the tool would compare them: timestamps and dates as ISO strings, numerics as numbers. */
const TYPES = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === 1082) return (value: string) => value;
    if (oid === 1184 || oid === 1114) return (value: string) => new Date(value).toISOString();
    if (oid === 1700 || oid === 20) return Number;
    return pg.types.getTypeParser(oid, format as "text");
  }) as typeof pg.types.getTypeParser,
};

describe("BI roles on PostgreSQL: one workspace's views, enforced by row-level security (issue 28)", () => {
  const h = useHarness("postgres");
  let a: Seeded;
  let b: Seeded;
  let roleA: CreatedBiRole;
  let roleB: CreatedBiRole;
  const clients: pg.Client[] = [];

  /** A new session as a BI role, with the credentials grantBi returned. */
  async function connect(role: CreatedBiRole): Promise<pg.Client> {
    const client = new pg.Client({
      host: role.host,
      port: role.port,
      database: role.database,
      user: role.role,
      password: role.password,
      types: TYPES,
    });
    client.on("error", () => {});
    await client.connect();
    clients.push(client);
    return client;
  }

  async function refused(client: pg.Client, query: string, code = PERMISSION_DENIED): Promise<void> {
    await expect(client.query(query), query).rejects.toMatchObject({ code });
  }

  beforeAll(async () => {
    await h.startWorker();
    a = await seedWorkspace(h, "Acme");
    b = await seedWorkspace(h, "Bravo");
    if (h.database.config.dialect !== "postgres") throw new Error("this suite runs on PostgreSQL");
    const endpoint = endpointOf(h.database.directUrl);
    roleA = await grantBi(h.deps, { workspaceId: a.tenant.workspace.id, endpoint });
    roleB = await grantBi(h.deps, { workspaceId: b.tenant.workspace.id, endpoint });
  });

  afterAll(async () => {
    for (const client of clients) await client.end().catch(() => {});
    // Roles are the cluster's, not the test database's: none may outlive the suite.
    for (const role of await h.deps.db.selectFrom("bi_grants").select("role_name").execute()) {
      await revokeBi(h.deps, { role: role.role_name });
    }
  });

  it("returns the connection once, and lists the role without a password", async () => {
    expect(roleA.role).toMatch(/^sl_bi_[0-9a-f]{12}$/);
    expect(roleA.password.length).toBeGreaterThanOrEqual(40);
    expect(roleA.url).toContain(`@${roleA.host}:${roleA.port}/${roleA.database}`);
    const listed = await listBi(h.deps, { workspaceId: a.tenant.workspace.id });
    expect(listed).toEqual([
      {
        object: "bi_role",
        role: roleA.role,
        workspace_id: a.tenant.workspace.id,
        agency_id: null,
        created_at: roleA.created_at,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(roleA.password);
    // PostgreSQL keeps a SCRAM verifier, never the password.
    const { rows } = await sql<{ rolpassword: string }>`
      select rolpassword from pg_authid where rolname = ${roleA.role}
    `.execute(h.deps.db);
    expect(rows[0]?.rolpassword).toMatch(/^SCRAM-SHA-256\$4096:/);
    expect(JSON.stringify(rows)).not.toContain(roleA.password);
  });

  it("computes the SCRAM verifier PostgreSQL itself computes for a password", async () => {
    const client = new pg.Client({ connectionString: h.database.url });
    await client.connect();
    const probe = `sl_bi_scram_${Date.now()}`;
    try {
      await client.query(`create role ${probe} nologin password 'correct horse battery staple'`);
      const { rows } = await client.query<{ rolpassword: string }>(
        "select rolpassword from pg_authid where rolname = $1",
        [probe],
      );
      const stored = rows[0]?.rolpassword ?? "";
      const [, iterations = "", salt = ""] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(stored) ?? [];
      expect(scramVerifier("correct horse battery staple", Buffer.from(salt, "base64"), Number(iterations))).toBe(
        stored,
      );
    } finally {
      await client.query(`drop role if exists ${probe}`);
      await client.end();
    }
  });

  it("reads every view of its own workspace, as many rows as the app counts, and none of the other's", async () => {
    const client = await connect(roleA);
    const own = await appCounts(h, a.tenant.workspace.id);
    const other = await appCounts(h, b.tenant.workspace.id);
    for (const view of ["answers", "citations", "brands", "traffic_bot_hits", "traffic_referrals"]) {
      expect(other[view], `workspace B has ${view}`).toBeGreaterThan(0);
    }
    for (const view of BI_VIEW_NAMES) {
      const { rows } = await client.query<{ n: number; ws: string[] | null }>(
        `select count(*)::int as n, array_agg(distinct workspace_id) as ws from bi.${view}`,
      );
      expect(rows[0]?.ws, view).toEqual([a.tenant.workspace.id]);
      if (view !== "daily_metrics") expect(rows[0]?.n, view).toBe(own[view]);
    }
    const daily = await client.query<{ n: number }>("select sum(answers)::int as n from bi.daily_metrics");
    expect(daily.rows[0]?.n).toBe(own.answers);
    // Asked for by name, the other workspace's rows are not there either.
    const theirs = await h.deps.db
      .selectFrom("results")
      .select("id")
      .where("workspace_id", "=", b.tenant.workspace.id)
      .execute();
    const asked = await client.query("select id from bi.answers where id = any($1) or workspace_id = $2", [
      theirs.map((r) => r.id),
      b.tenant.workspace.id,
    ]);
    expect(asked.rows).toEqual([]);
    const brands = await client.query("select id from bi.brands where id = $1", [b.projectId]);
    expect(brands.rows).toEqual([]);
  });

  it("has each view's documented columns, in order", async () => {
    const client = await connect(roleA);
    for (const view of BI_VIEW_NAMES) {
      const { rows } = await client.query<{ column_name: string }>(
        "select column_name from information_schema.columns where table_schema = 'bi' and table_name = $1 order by ordinal_position",
        [view],
      );
      expect(
        rows.map((r) => r.column_name),
        view,
      ).toEqual([...BI_VIEWS[view]]);
    }
  });

  it("decides by the login role querying (current_user), not by the views' owner: each role sees its own workspace", async () => {
    const [clientA, clientB] = [await connect(roleA), await connect(roleB)];
    const who = await clientA.query<{ me: string; member: boolean }>(
      "select current_user as me, pg_has_role('sightline_bi_views', 'MEMBER') as member",
    );
    expect(who.rows[0]).toEqual({ me: roleA.role, member: false });
    const brandsOf = async (client: pg.Client) =>
      (await client.query("select id from bi.brands")).rows.map((r) => r.id);
    expect(await brandsOf(clientA)).toEqual([a.projectId]);
    expect(await brandsOf(clientB)).toEqual([b.projectId]);
  });

  it("is refused every base table, the grants table included", async () => {
    const client = await connect(roleA);
    for (const table of [
      "results",
      "projects",
      "api_keys",
      "workspaces",
      "bi_grants",
      "traffic_bot_hits",
      "traffic_referrals",
      "users",
      "accounts",
      "sessions",
      "webhook_endpoints",
      "workspace_engines",
      "events",
    ]) {
      await refused(client, `select * from ${table} limit 1`);
      await refused(client, `select * from public.${table} limit 1`);
    }
    await refused(client, "copy results to stdout");
  });

  it("cannot write, create, or become another role, even after turning read-only transactions off", async () => {
    const client = await connect(roleA);
    expect((await client.query("show default_transaction_read_only")).rows[0]).toEqual({
      default_transaction_read_only: "on",
    });
    await expect(client.query("insert into bi.brands (id) values ('x')")).rejects.toThrow();
    await client.query("set default_transaction_read_only = off");
    await refused(client, "insert into bi.brands (id, workspace_id, name, primary_domain) values ('x', 'y', 'z', 'w')");
    await refused(client, "update bi.brands set name = 'pwned'");
    await refused(client, "delete from bi.brands");
    await expect(client.query("update bi.answers set prompt = 'pwned'")).rejects.toThrow();
    await expect(client.query("truncate bi.brands")).rejects.toThrow();
    await refused(client, "insert into results (id) values ('x')");
    await refused(client, "update projects set name = 'pwned'");
    await refused(client, "delete from bi_grants");
    await refused(client, "truncate results");
    await refused(client, "select nextval(pg_get_serial_sequence('events', 'seq'))");
    await refused(client, "create table public.stolen (x int)");
    await refused(client, "create table bi.stolen (x int)");
    await refused(client, "create view bi.mine as select * from bi.answers");
    await refused(client, "create schema mine");
    await refused(client, "create function public.lower(x text) returns text language sql as 'select x'");
    await refused(client, "set role sightline_bi_views");
    await refused(client, "set session authorization postgres");
    await refused(client, `alter role ${roleA.role} bypassrls`);
    await refused(client, "copy (select 1) to '/tmp/sightline-bi-stolen'");
    // Row-level security cannot be switched off: the query is refused rather than filtered.
    await client.query("set row_security = off");
    await refused(client, "select * from bi.answers");
    await client.query("reset row_security");
    const after = await appCounts(h, a.tenant.workspace.id);
    expect(after.brands).toBe(1);
  });

  it("leaks nothing of the other workspace through an error raised in a crafted filter", async () => {
    const client = await connect(roleA);
    // Were the filter evaluated on B's rows before the policy, the division by zero would raise for
    // them (a division of the row's own values: a constant 1 / 0 is folded, and raised, when planning).
    const crafted = await client.query(
      "select id from bi.answers where case when workspace_id = $1 then 1 / (sample - sample) = 1 else false end",
      [b.tenant.workspace.id],
    );
    expect(crafted.rows).toEqual([]);
    // The same filter on the role's own workspace does raise: the probe works.
    await expect(
      client.query(
        "select id from bi.answers where case when workspace_id = $1 then 1 / (sample - sample) = 1 else false end",
        [a.tenant.workspace.id],
      ),
    ).rejects.toMatchObject({ code: "22012" });
    // Nor through a cast that would quote B's value in its error.
    const cast = await client.query(
      "select count(*)::int as n from bi.citations where (case when workspace_id = $1 then url::int else 0 end) = 1",
      [b.tenant.workspace.id],
    );
    expect(cast.rows[0]?.n).toBe(0);
    await expect(
      client.query(
        "select count(*)::int as n from bi.citations where (case when workspace_id = $1 then url::int else 0 end) = 1",
        [a.tenant.workspace.id],
      ),
    ).rejects.toMatchObject({ code: "22P02" });
  });

  it("leaves the app's own reads and writes untouched: it owns the tables, which row-level security does not filter", async () => {
    const listed = await h.call("listResults", { key: a.tenant.key, query: { limit: 100 } });
    expect(listed.statusCode, listed.body).toBe(200);
    const own = await h.deps.db
      .selectFrom("results")
      .select("id")
      .where("workspace_id", "=", a.tenant.workspace.id)
      .execute();
    expect(own.length).toBeGreaterThan(0);
    expect(
      listed
        .json()
        .data.map((r: { id: string }) => r.id)
        .sort(),
    ).toEqual(own.map((r) => r.id).sort());
    const brand = await h.call("getProject", { key: a.tenant.key, params: { id: a.projectId } });
    expect(brand.statusCode, brand.body).toBe(200);
    const { rows } = await sql<{ relname: string; rls: boolean; forced: boolean }>`
      select relname, relrowsecurity as rls, relforcerowsecurity as forced from pg_class
      where relname in ('projects', 'results', 'traffic_bot_hits', 'traffic_referrals') and relkind in ('r', 'p')
    `.execute(h.deps.db);
    for (const table of ["projects", "results", "traffic_bot_hits", "traffic_referrals"]) {
      expect(
        rows.find((r) => r.relname === table),
        table,
      ).toEqual({ relname: table, rls: true, forced: false });
    }
  });

  it("writes the same rows as the views into the CSV export", async () => {
    const client = await connect(roleA);
    const dir = mkdtempSync(join(tmpdir(), "sightline-bi-"));
    await exportBi(h.deps, { workspaceId: a.tenant.workspace.id, dir });
    const keys: Record<string, string[]> = {
      brands: ["id"],
      answers: ["id", "mentioned", "position", "sentiment", "score", "citation_count"],
      citations: ["answer_id", "position", "url", "is_brand", "category"],
      daily_metrics: ["brand_id", "engine", "prompt", "day", "answers", "mentioned", "brand_cited"],
      traffic_bot_hits: ["day", "brand_id", "path", "bot", "verification", "hits"],
      traffic_referrals: ["day", "brand_id", "path", "engine", "visits"],
    };
    for (const view of BI_VIEW_NAMES) {
      const columns = keys[view] ?? [];
      const { rows } = await client.query(`select * from bi.${view}`);
      const fromView = rows.map((r) => columns.map((c) => (r[c] === null ? "" : String(r[c]))).join("|")).sort();
      const csv = readCsv(join(dir, `${view}.csv`));
      expect(csv.header, view).toEqual([...BI_VIEWS[view]]);
      const fromFile = csv.rows.map((r) => columns.map((c) => r[csv.header.indexOf(c)] ?? "").join("|")).sort();
      expect(fromFile, view).toEqual(fromView);
    }
  });

  it("revokes: the role can no longer log in, and a session it left open reads nothing more", async () => {
    const open = await connect(roleB);
    expect((await open.query("select count(*)::int as n from bi.answers")).rows[0]?.n).toBeGreaterThan(0);
    await revokeBi(h.deps, { role: roleB.role });
    expect(await listBi(h.deps, { workspaceId: b.tenant.workspace.id })).toEqual([]);
    await refused(open, "select count(*) from bi.answers");
    await expect(connect(roleB)).rejects.toThrow(/does not exist|password authentication failed/);
    const gone = await sql`select rolname from pg_roles where rolname = ${roleB.role}`.execute(h.deps.db);
    expect(gone.rows).toEqual([]);
    await expect(revokeBi(h.deps, { role: roleB.role })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(revokeBi(h.deps, { role: "postgres" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
