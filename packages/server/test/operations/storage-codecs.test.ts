import { sql } from "kysely";
import { expect, it } from "vitest";
import { BOOLEAN_COLUMNS } from "../../src/db/columns.ts";
import { StoredDataError } from "../../src/db/json-column.ts";
import { getProject } from "../../src/services/projects/projects.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect } from "../helpers/harness.ts";

describeEachDialect("column codecs", (h) => {
  it("lists exactly the columns PostgreSQL stores as booleans", async () => {
    if (h.dialect !== "postgres") {
      // SQLite stores them as integers: the list is what tells the driver; each one must exist.
      for (const [table, columns] of Object.entries(BOOLEAN_COLUMNS)) {
        const info = await sql<{
          name: string;
          type: string;
        }>`select name, type from pragma_table_info(${table})`.execute(h.deps.db);
        for (const column of columns) {
          expect(info.rows.find((r) => r.name === column)?.type.toLowerCase(), `${table}.${column}`).toBe("integer");
        }
      }
      return;
    }
    const rows = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type = 'boolean'
        -- A partition (results' months) is its parent's rows: the parent is what the app names.
        and table_name not in (select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid)
      order by table_name, column_name`.execute(h.deps.db);
    const found: Record<string, string[]> = {};
    for (const row of rows.rows) found[row.table_name] = [...(found[row.table_name] ?? []), row.column_name];
    const listed = Object.fromEntries(
      Object.entries(BOOLEAN_COLUMNS).map(([table, cols]) => [table, [...cols].sort()]),
    );
    expect(found).toEqual(listed);
  });

  it("reads booleans as booleans and writes them from booleans, also in where clauses", async () => {
    const t = await h.tenant();
    const created = await h.call("createWebhook", {
      key: t.key,
      body: { url: "https://93.184.216.34/hooks", events: ["project.created"] },
    });
    const id = created.json().id as string;
    await h.call("updateWebhook", { key: t.key, params: { id }, body: { active: false } });
    const row = await h.deps.db
      .selectFrom("webhook_endpoints")
      .select(["active"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.active).toBe(false);
    const inactive = await h.deps.db
      .selectFrom("webhook_endpoints")
      .select("id")
      .where("workspace_id", "=", t.workspace.id)
      .where("active", "=", false)
      .execute();
    expect(inactive.map((r) => r.id)).toEqual([id]);
    // An expression over a boolean column stays a number.
    const counted = await sql<{ n: number }>`select count(*) as n from webhook_endpoints where id = ${id}`.execute(
      h.deps.db,
    );
    expect(Number(counted.rows[0]?.n)).toBe(1);
  });

  it("refuses to serve a JSON column that does not hold what its schema says", async () => {
    const t = await h.tenant();
    const project = (
      await h.call("createProject", { key: t.key, body: { name: "Acme", primary_domain: "acme.com" } })
    ).json();
    await h.deps.db
      .updateTable("projects")
      .set({ aliases: JSON.stringify([42]) })
      .where("id", "=", project.id)
      .execute();
    const ctx = await workspaceContext(h.deps, t.workspace.id);
    await expect(getProject(ctx, project.id)).rejects.toThrow(StoredDataError);
    await expect(getProject(ctx, project.id)).rejects.toThrow(/projects\.aliases/);
    const res = await h.call("getProject", { key: t.key, params: { id: project.id } });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe("INTERNAL_ERROR");
    expect(res.body).not.toContain("42");
  });
});
