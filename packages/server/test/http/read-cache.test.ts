import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { openDatabase } from "../../src/db/database.ts";
import { updateProject } from "../../src/services/projects/projects.ts";
import { ReadCache } from "../../src/services/read-cache.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";

interface ProjectView {
  id: string;
  name: string;
}

describeEachDialect("the read cache (projects)", (h) => {
  // Another process's view of the same database: its own runtime, connection and cache.
  let other: Runtime;
  beforeAll(async () => {
    other = await createRuntime({ database: h.database.config }, pino({ level: "silent" }), { clock: h.clock });
  });
  afterAll(async () => {
    await other.close();
  });

  async function list(t: Tenant): Promise<ProjectView[]> {
    const res = await h.call("listProjects", { key: t.key });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: ProjectView[] }).data;
  }

  async function one(t: Tenant, id: string) {
    return h.call("getProject", { key: t.key, params: { id } });
  }

  async function create(t: Tenant, name: string): Promise<ProjectView> {
    h.clock.advance(1_000); // newest first, by creation
    const res = await h.call("createProject", { key: t.key, body: { name, primary_domain: "acme.com" } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as ProjectView;
  }

  it("answers every read with what the database holds, whichever process or code path changed it", async () => {
    const t = await h.tenant();
    const acme = await create(t, "Acme");
    expect((await list(t)).map((p) => p.name)).toEqual(["Acme"]);
    expect((await list(t)).map((p) => p.name)).toEqual(["Acme"]); // served again, unchanged
    expect((await one(t, acme.id)).json()).toMatchObject({ name: "Acme" });

    // Through another process's services.
    const elsewhere = await workspaceContext(other.deps, t.workspace.id);
    await updateProject(elsewhere, acme.id, { name: "Acme Renamed" });
    expect((await list(t)).map((p) => p.name)).toEqual(["Acme Renamed"]);
    expect((await one(t, acme.id)).json()).toMatchObject({ name: "Acme Renamed" });

    // Through plain SQL on another connection, as an operator (or a future code path) might.
    await other.deps.db.updateTable("projects").set({ name: "Acme by hand" }).where("id", "=", acme.id).execute();
    expect((await list(t)).map((p) => p.name)).toEqual(["Acme by hand"]);
    expect((await one(t, acme.id)).json()).toMatchObject({ name: "Acme by hand" });

    // A brand added elsewhere appears; one deleted elsewhere is gone, singly too.
    await other.deps.db
      .insertInto("projects")
      .values({
        ...(await other.deps.db.selectFrom("projects").selectAll().where("id", "=", acme.id).executeTakeFirstOrThrow()),
        id: "proj_insertedbyhand",
        name: "Second",
        created_at: new Date(h.clock.now().getTime() + 500).toISOString(),
      })
      .execute();
    expect((await list(t)).map((p) => p.name)).toEqual(["Second", "Acme by hand"]);
    await other.deps.db.deleteFrom("projects").where("id", "=", acme.id).execute();
    expect((await list(t)).map((p) => p.name)).toEqual(["Second"]);
    expect((await one(t, acme.id)).statusCode).toBe(404);

    // And this process's own writes.
    await create(t, "Third");
    expect((await list(t)).map((p) => p.name)).toEqual(["Third", "Second"]);
  });

  it("keeps each workspace's and each page's answer apart", async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    await create(a, "Alpha one");
    await create(a, "Alpha two");
    await create(b, "Beta");
    expect((await list(a)).map((p) => p.name)).toEqual(["Alpha two", "Alpha one"]);
    expect((await list(b)).map((p) => p.name)).toEqual(["Beta"]);
    const first = await h.call("listProjects", { key: a.key, query: { limit: "1" } });
    const page = first.json() as { data: ProjectView[]; next_cursor: string };
    expect(page.data.map((p) => p.name)).toEqual(["Alpha two"]);
    const second = await h.call("listProjects", { key: a.key, query: { limit: "1", cursor: page.next_cursor } });
    expect((second.json() as { data: ProjectView[] }).data.map((p) => p.name)).toEqual(["Alpha one"]);
    // A change in one workspace leaves the other's answer as it is, and correct.
    await updateProject(await workspaceContext(other.deps, b.workspace.id), (await list(b))[0]?.id ?? "", {
      name: "Beta Renamed",
    });
    expect((await list(b)).map((p) => p.name)).toEqual(["Beta Renamed"]);
    expect((await list(a)).map((p) => p.name)).toEqual(["Alpha two", "Alpha one"]);
  });

  it("serves a kept answer without computing it, and never keeps one computed while a change committed", async () => {
    const t = await h.tenant();
    const acme = await create(t, "Acme");
    // Its own connection, as a process has: SQLite's change stamp belongs to one connection.
    const database = openDatabase(h.database.config);
    try {
      const cache = new ReadCache(database.changeStamp);
      const read = (compute: () => Promise<string>) =>
        cache.read(database.db, t.workspace.id, "projects", "/v1/projects", compute);
      const never = async (): Promise<string> => expect.fail("computed again while nothing changed");

      expect(await read(async () => "v1")).toBe("v1");
      expect(await read(never)).toBe("v1");
      expect(await read(never)).toBe("v1");

      // A change commits (in another process) while the answer is being computed: that answer is
      // returned to its caller, as of its own reads, but not kept.
      const during = async () => {
        await other.deps.db.updateTable("projects").set({ name: "During" }).where("id", "=", acme.id).execute();
        return "computed during a change";
      };
      await other.deps.db.updateTable("projects").set({ name: "Before" }).where("id", "=", acme.id).execute();
      expect(await read(during)).toBe("computed during a change");
      expect(await read(async () => "v3")).toBe("v3");
      expect(await read(never)).toBe("v3");

      // A change to a brand of another workspace leaves this answer kept.
      const stranger = await h.tenant();
      await create(stranger, "Stranger");
      expect(await read(never)).toBe("v3");
    } finally {
      await database.close();
    }
  });
});
