import { afterAll, beforeAll, expect, it } from "vitest";
import { createAgency } from "../../src/services/agencies/agencies.ts";
import { createClient } from "../../src/services/agencies/clients.ts";
import { setCustomHost } from "../../src/services/agencies/hosts.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { SCOPES } from "../../src/services/api-keys/scopes.ts";
import { brandingOf } from "../../src/services/branding/branding.ts";
import { billingPeriod } from "../../src/services/usage/period.ts";
import { dashboard, type Session, signUp } from "../helpers/dashboard.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";
import { Site } from "../helpers/website.ts";

const HOME = `<!doctype html><html lang="en-GB"><head><title>Fjord Bikes | The cargo bike for families</title>
<meta name="description" content="Fjord Bikes is an electric cargo bike brand for families and couriers.">
</head><body><h1>Cargo bikes that carry the week</h1>
<p>Compared with Urban Arrow and Riese &amp; Müller, Fjord is lighter.</p></body></html>`;

interface Setup {
  admin: Session;
  agencyId: string;
}

/** An admin (signed up: their own workspace is on the Agency plan) and their agency with `pool` credits. */
async function agencyWithAdmin(h: Harness, pool: number): Promise<Setup> {
  const admin = await signUp(h, { workspace_name: "Admin's own" });
  const agency = await createAgency(h.deps, {
    name: "Northwind Partners",
    creditsPerMonth: pool,
    adminUserId: admin.user.id,
  });
  return { admin, agencyId: agency.id };
}

async function client(h: Harness, setup: Setup, name: string, cap: number | null = null) {
  const created = await createClient(
    h.deps,
    { id: setup.agencyId, name: "Northwind Partners", role: "admin" },
    {
      name,
      credit_cap: cap,
    },
  );
  const key = (await createApiKey(h.deps, { workspaceId: created.id, name: "test", scopes: [...SCOPES] })).key;
  const project = await h.call("createProject", {
    key,
    body: {
      name,
      primary_domain: `${name.toLowerCase().replace(/\W+/g, "")}.example`,
      prompts: ["best cargo bike", "cargo bike for a family"],
    },
  });
  expect(project.statusCode, project.body).toBe(201);
  return { id: created.id, key, projectId: project.json().id as string };
}

async function ledger(h: Harness, workspaceId: string) {
  const usage = await h.deps.db
    .selectFrom("credit_usage")
    .select("used")
    .where("workspace_id", "=", workspaceId)
    .execute();
  const entries = await h.deps.db
    .selectFrom("credit_entries")
    .select("credits")
    .where("workspace_id", "=", workspaceId)
    .execute();
  return {
    used: usage.reduce((sum, row) => sum + Number(row.used), 0),
    entries: entries.reduce((sum, row) => sum + Number(row.credits), 0),
  };
}

describeEachDialect(
  "agencies",
  (h) => {
    let site: Site;
    beforeAll(async () => {
      site = await new Site().start();
      site.pages.set("/", { body: HOME });
    });
    afterAll(async () => site.stop());

    it("gives staff their agency role in every client, and a client's own membership wins", async () => {
      const setup = await agencyWithAdmin(h, 1_000);
      const a = await client(h, setup, "Acme Bikes");
      const b = await client(h, setup, "Bolt Cycles");
      const viewer = await signUp(h, { workspace_name: "Viewer's own" });
      const added = await dashboard(h, "POST", `/app/api/agencies/${setup.agencyId}/staff`, {
        cookie: setup.admin.cookie,
        body: { email: viewer.user.email, role: "viewer" },
      });
      expect(added.statusCode, added.body).toBe(201);
      const me = (await dashboard(h, "GET", "/app/api/me", { cookie: viewer.cookie })).json();
      const listed = me.workspaces.filter((w: { agency: unknown }) => w.agency !== null);
      expect(listed.map((w: { id: string; role: string }) => [w.id, w.role]).sort()).toEqual(
        [
          [a.id, "viewer"],
          [b.id, "viewer"],
        ].sort(),
      );
      // A viewer reads a client's brands, and cannot add one.
      const read = await dashboard(h, "GET", `/app/api/workspaces/${a.id}/v1/projects`, { cookie: viewer.cookie });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().data.map((p: { id: string }) => p.id)).toEqual([a.projectId]);
      const write = await dashboard(h, "POST", `/app/api/workspaces/${a.id}/v1/projects`, {
        cookie: viewer.cookie,
        body: { name: "Nope", primary_domain: "nope.example" },
      });
      expect(write.statusCode).toBe(403);
      // The admin is the client's owner: they may rename it.
      const renamed = await dashboard(h, "PATCH", `/app/api/workspaces/${a.id}`, {
        cookie: setup.admin.cookie,
        body: { name: "Acme Bikes Ltd" },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().role).toBe("owner");
      // Made an admin of B by B itself, the viewer writes there, and still only reads A.
      await h.deps.db
        .insertInto("members")
        .values({
          workspace_id: b.id,
          user_id: viewer.user.id,
          role: "admin",
          created_at: "2026-11-21T12:00:00.000Z",
          updated_at: "2026-11-21T12:00:00.000Z",
        })
        .execute();
      const inB = await dashboard(h, "POST", `/app/api/workspaces/${b.id}/v1/projects`, {
        cookie: viewer.cookie,
        body: { name: "Second brand", primary_domain: "second.example" },
      });
      expect(inB.statusCode, inB.body).toBe(201);
      // Staff of another agency, or nobody's: the agency and its clients do not exist for them.
      const stranger = await signUp(h, { workspace_name: "Stranger's own" });
      expect(
        (await dashboard(h, "GET", `/app/api/agencies/${setup.agencyId}`, { cookie: stranger.cookie })).statusCode,
      ).toBe(404);
      expect(
        (await dashboard(h, "GET", `/app/api/workspaces/${a.id}/v1/projects`, { cookie: stranger.cookie })).statusCode,
      ).toBe(404);
      // Only an admin sets caps or staff.
      const capByViewer = await dashboard(h, "PATCH", `/app/api/agencies/${setup.agencyId}/clients/${a.id}`, {
        cookie: viewer.cookie,
        body: { credit_cap: 10 },
      });
      expect(capByViewer.statusCode).toBe(403);
    });

    it("pools credits with per-client caps under concurrent analyses: nothing lost or counted twice", async () => {
      const setup = await agencyWithAdmin(h, 100);
      const capped = await client(h, setup, "Capped Co", 20);
      const free = await client(h, setup, "Open Co");
      const analyze = (c: { key: string; projectId: string }) =>
        h.call("analyze", { key: c.key, body: { project_id: c.projectId, engines: ["sandbox"] } });
      // Two credits an analysis (two prompts, one engine, one sample): 20 each at once.
      const first = await Promise.all([
        ...Array.from({ length: 20 }, () => analyze(capped)),
        ...Array.from({ length: 20 }, () => analyze(free)),
      ]);
      const cappedAnswers = first.slice(0, 20);
      const freeAnswers = first.slice(20);
      expect(cappedAnswers.filter((r) => r.statusCode === 202)).toHaveLength(10);
      const refused = cappedAnswers.filter((r) => r.statusCode !== 202);
      expect(refused).toHaveLength(10);
      const period = billingPeriod(
        (
          await h.deps.db
            .selectFrom("agencies")
            .select("billing_anchor")
            .where("id", "=", setup.agencyId)
            .executeTakeFirstOrThrow()
        ).billing_anchor,
        h.clock.now(),
      );
      for (const r of refused) {
        expect(r.statusCode).toBe(403);
        expect(r.json().error.code).toBe("BILLING_LIMIT_EXCEEDED");
        expect(r.json().error.message).toContain("Capped Co");
        expect(r.json().error.message).toContain(period.end);
        expect(r.json().error.details[0]).toMatchObject({ issue: "client credit cap reached", cap: 20, used: 20 });
      }
      expect(freeAnswers.every((r) => r.statusCode === 202)).toBe(true);
      // The pool has 100 - 20 - 40 = 40 left: 30 more for the open client, 20 fit.
      const second = await Promise.all(Array.from({ length: 30 }, () => analyze(free)));
      expect(second.filter((r) => r.statusCode === 202)).toHaveLength(20);
      for (const r of second.filter((one) => one.statusCode !== 202)) {
        expect(r.json().error.details[0]).toMatchObject({ issue: "agency credit pool reached", allowance: 100 });
      }
      const cappedLedger = await ledger(h, capped.id);
      const freeLedger = await ledger(h, free.id);
      expect(cappedLedger).toEqual({ used: 20, entries: 20 });
      expect(freeLedger).toEqual({ used: 80, entries: 80 });
      const pool = await h.deps.db
        .selectFrom("agency_credit_usage")
        .select("used")
        .where("agency_id", "=", setup.agencyId)
        .executeTakeFirstOrThrow();
      expect(Number(pool.used)).toBe(cappedLedger.used + freeLedger.used);
      const analyses = await h.deps.db
        .selectFrom("analyses")
        .select((eb) => eb.fn.sum<number>("credits_reserved").as("n"))
        .where("workspace_id", "in", [capped.id, free.id])
        .executeTakeFirstOrThrow();
      expect(Number(analyses.n)).toBe(100);
      // What the agency home and each client's usage say is the same ledger.
      const home = (
        await dashboard(h, "GET", `/app/api/agencies/${setup.agencyId}/clients`, { cookie: setup.admin.cookie })
      ).json();
      expect(
        home.data.map((c: { name: string; credits_used: number; credit_cap: number | null }) => [
          c.name,
          c.credits_used,
          c.credit_cap,
        ]),
      ).toEqual([
        ["Capped Co", 20, 20],
        ["Open Co", 80, null],
      ]);
      const agency = (
        await dashboard(h, "GET", `/app/api/agencies/${setup.agencyId}`, { cookie: setup.admin.cookie })
      ).json();
      expect(agency.credits).toMatchObject({ allowance: 100, used: 100, remaining: 0, period_end: period.end });
      const usage = (await h.call("getUsage", { key: free.key })).json();
      expect(usage.credits).toMatchObject({ allowance: 100, used: 80, remaining: 0 });
      // Raising the cap lets the capped client go on, within what is left of the pool (none).
      const raised = await dashboard(h, "PATCH", `/app/api/agencies/${setup.agencyId}/clients/${capped.id}`, {
        cookie: setup.admin.cookie,
        body: { credit_cap: 50 },
      });
      expect(raised.statusCode, raised.body).toBe(200);
      const again = await analyze(capped);
      expect(again.json().error.details[0]).toMatchObject({ issue: "agency credit pool reached" });
    });

    it("answers on the agency's custom host with its branding, and sets no cookie for another host", async () => {
      const setup = await agencyWithAdmin(h, 1_000);
      const c = await client(h, setup, "Hosted Co");
      const host = `reports-${h.dialect}.northwind.test`;
      expect(await setCustomHost(h.deps, setup.agencyId, host)).toBe(host);
      const branded = await dashboard(h, "PATCH", `/app/api/agencies/${setup.agencyId}/branding`, {
        cookie: setup.admin.cookie,
        body: { name: "Northwind Partners", primary: "#123456" },
      });
      expect(branded.statusCode, branded.body).toBe(200);
      // The host's page is the agency's; any other host's is Sightline's.
      const there = await dashboard(h, "GET", "/app/api/host", { headers: { host }, origin: `http://${host}` });
      expect(there.statusCode, there.body).toBe(200);
      expect(there.json()).toMatchObject({ agency: setup.agencyId, name: "Northwind Partners", primary: "#123456" });
      const elsewhere = await dashboard(h, "GET", "/app/api/host", { headers: { host: "localhost:8080" } });
      expect(elsewhere.json()).toEqual({
        agency: null,
        name: null,
        logo: null,
        primary: null,
        accent: null,
        show_sightline: true,
      });
      // A name nobody configured is refused before anything runs.
      const unknown = await dashboard(h, "GET", "/app/api/host", { headers: { host: "evil.example" } });
      expect(unknown.statusCode).toBe(400);
      // Signing in on the agency's host: its cookie is that host's only (no Domain).
      const signedIn = await dashboard(h, "POST", "/app/api/auth/sign-in/email", {
        headers: { host },
        origin: `http://${host}`,
        body: { email: setup.admin.user.email, password: "a long enough password" },
      });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const cookies = [signedIn.headers["set-cookie"]].flat().filter((v): v is string => typeof v === "string");
      expect(cookies.length).toBeGreaterThan(0);
      for (const cookie of cookies) expect(cookie.toLowerCase()).not.toContain("domain=");
      // Signing in on the public host gets a cookie that is not the agency's host either.
      const plain = await dashboard(h, "POST", "/app/api/auth/sign-in/email", {
        body: { email: setup.admin.user.email, password: "a long enough password" },
      });
      for (const cookie of [plain.headers["set-cookie"]].flat().filter((v): v is string => typeof v === "string")) {
        expect(cookie.toLowerCase()).not.toContain(host);
      }
      // Links for the client start with the agency's host; the client's reports are signed by the agency.
      expect((await brandingOf(h.deps, c.id)).name).toBe("Northwind Partners");
      await setCustomHost(h.deps, setup.agencyId, null);
      const gone = await dashboard(h, "GET", "/app/api/host", { headers: { host } });
      expect(gone.statusCode).toBe(400);
    });

    it("makes a pitch from a website: suggested prompts, one analysis, a branded link opened without a session, converted later", async () => {
      const setup = await agencyWithAdmin(h, 1_000);
      const host = `pitch-${h.dialect}.northwind.test`;
      await setCustomHost(h.deps, setup.agencyId, host);
      await dashboard(h, "PATCH", `/app/api/agencies/${setup.agencyId}/branding`, {
        cookie: setup.admin.cookie,
        body: { name: "Northwind Partners", show_sightline: false },
      });
      const worker = await h.startWorker();
      const started = await dashboard(h, "POST", `/app/api/agencies/${setup.agencyId}/pitches`, {
        cookie: setup.admin.cookie,
        body: { website: site.url },
      });
      expect(started.statusCode, started.body).toBe(201);
      const { pitch, suggestion } = started.json();
      expect(pitch.status).toBe("draft");
      expect(suggestion.name.value).toBe("Fjord Bikes");
      expect(suggestion.prompts.length, JSON.stringify(suggestion.notices)).toBeGreaterThanOrEqual(3);
      const prompts = suggestion.prompts.slice(0, 3).map((p: { value: string }) => p.value);
      const ran = await dashboard(h, "POST", `/app/api/agencies/${setup.agencyId}/pitches/${pitch.id}/run`, {
        cookie: setup.admin.cookie,
        body: {
          name: "Fjord Bikes",
          primary_domain: "fjordbikes.example",
          prompts,
          competitors: ["Urban Arrow", "Riese & Müller"],
        },
      });
      expect(ran.statusCode, ran.body).toBe(202);
      let current = ran.json();
      const deadline = Date.now() + 30_000;
      while (current.status === "running" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        current = (
          await dashboard(h, "GET", `/app/api/agencies/${setup.agencyId}/pitches/${pitch.id}`, {
            cookie: setup.admin.cookie,
          })
        ).json();
      }
      expect(current.status).toBe("ready");
      expect(current.answers).toEqual({ done: 3, total: 3 });
      // Not a client: the agency home and the switcher do not list it.
      const home = (
        await dashboard(h, "GET", `/app/api/agencies/${setup.agencyId}/clients`, { cookie: setup.admin.cookie })
      ).json();
      expect(home.data.map((c: { id: string }) => c.id)).not.toContain(pitch.workspace_id);
      const shared = await dashboard(h, "POST", `/app/api/agencies/${setup.agencyId}/pitches/${pitch.id}/share`, {
        cookie: setup.admin.cookie,
      });
      expect(shared.statusCode, shared.body).toBe(200);
      const url = new URL(shared.json().share_url);
      expect(url.host).toBe(host);
      const page = await h.app.inject({ method: "GET", url: url.pathname, headers: { host } });
      expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
      expect(page.body).toContain("Northwind Partners");
      expect(page.body).toContain("Fjord Bikes");
      expect(page.body).not.toContain("Sightline");
      // Converted: a client with its answers.
      const converted = await dashboard(h, "POST", `/app/api/agencies/${setup.agencyId}/pitches/${pitch.id}/convert`, {
        cookie: setup.admin.cookie,
        body: { credit_cap: 200 },
      });
      expect(converted.statusCode, converted.body).toBe(200);
      expect(converted.json().status).toBe("converted");
      const after = (
        await dashboard(h, "GET", `/app/api/agencies/${setup.agencyId}/clients`, { cookie: setup.admin.cookie })
      ).json();
      const row = after.data.find((c: { id: string }) => c.id === pitch.workspace_id);
      // Its credits are what its ledger holds: three answers, and what judging them cost.
      const spent = await ledger(h, pitch.workspace_id);
      expect(spent.used).toBe(spent.entries);
      expect(spent.used).toBeGreaterThanOrEqual(3);
      expect(row).toMatchObject({ name: "Fjord Bikes", brands: 1, credits_used: spent.used, credit_cap: 200 });
      expect(row.visibility.n).toBe(3);
      await worker.stop(1_000);
    });

    it("starts at most ten pitches a minute per agency: each reads a website in a workspace of its own", async () => {
      const setup = await agencyWithAdmin(h, 1_000);
      const start = () =>
        dashboard(h, "POST", `/app/api/agencies/${setup.agencyId}/pitches`, {
          cookie: setup.admin.cookie,
          // Nothing listens there: the pitch is made, with why its site could not be read.
          body: { website: "http://127.0.0.1:9" },
        });
      for (let i = 0; i < 10; i++) {
        const res = await start();
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().problem).toEqual(expect.any(String));
      }
      const refused = await start();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe("RATE_LIMIT_EXCEEDED");
      const made = await h.deps.db
        .selectFrom("workspaces")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("agency_id", "=", setup.agencyId)
        .where("agency_kind", "=", "pitch")
        .executeTakeFirstOrThrow();
      expect(Number(made.n)).toBe(10);
    });

    it("inherits the agency's branding field by field, the client's own settings winning", async () => {
      const setup = await agencyWithAdmin(h, 1_000);
      const c = await client(h, setup, "Own Colours Co");
      await dashboard(h, "PATCH", `/app/api/agencies/${setup.agencyId}/branding`, {
        cookie: setup.admin.cookie,
        body: { name: "Northwind Partners", primary: "#112233", accent: "#445566", show_sightline: false },
      });
      expect(await brandingOf(h.deps, c.id)).toMatchObject({
        name: "Northwind Partners",
        primary: "#112233",
        accent: "#445566",
        show_sightline: false,
      });
      const own = await dashboard(h, "PATCH", `/app/api/workspaces/${c.id}/branding`, {
        cookie: setup.admin.cookie,
        body: { primary: "#abcdef" },
      });
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json()).toMatchObject({ primary: "#abcdef", accent: "#445566", agency: "Northwind Partners" });
      expect(await brandingOf(h.deps, c.id)).toMatchObject({
        name: "Northwind Partners",
        primary: "#abcdef",
        show_sightline: false,
      });
      // A workspace of no agency is as before.
      const alone = await signUp(h, { workspace_name: "Alone" });
      expect(await brandingOf(h.deps, alone.workspaceId)).toMatchObject({ name: "Alone", show_sightline: true });
    });
  },
  { config: { webhookAllowPrivate: true, accounts: { openSignup: true } } },
);
