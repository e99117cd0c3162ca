import { generateKeyPairSync } from "node:crypto";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { schedulerTick } from "../../src/app/scheduler.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { connectGa4, engineOfSource } from "../../src/services/traffic/ga4.ts";
import { importTrafficLogs } from "../../src/services/traffic/import.ts";
import { GA4_HOST } from "../../src/services/traffic/referral-sources.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { type FakeGoogle, type FakeRow, startFakeGoogle } from "../helpers/fake-google-analytics.ts";
import { describeEachDialect, type Harness, type Tenant, useHarness } from "../helpers/harness.ts";

/**
 * Issue 26: GA4 as a second source of AI referrals, against a local fake of Google's token
 * endpoint and Data API (helpers/fake-google-analytics.ts). The clock stands at 2026-11-21 12:00 UTC.
 */

const PROPERTY = "123456789";

interface Brand {
  tenant: Tenant;
  ctx: ServiceContext;
  projectId: string;
}

async function brand(h: Harness): Promise<Brand> {
  const tenant = await h.tenant();
  const ctx = await workspaceContext(h.deps, tenant.workspace.id);
  const { id } = await createProject(ctx, { name: "Acme", primary_domain: "acme.io" });
  return { tenant, ctx, projectId: id };
}

/** Connected through the service, so that the Data API is the fake's (the API connects to Google's). */
async function connected(b: Brand, google: FakeGoogle, property = PROPERTY): Promise<void> {
  await connectGa4(
    b.ctx,
    b.projectId,
    { property_id: property, service_account_key: google.keyFile() },
    { dataApiUrl: google.url },
  );
}

const row = (date: string, source: string, landingPage: string, sessions: number): FakeRow => ({
  date,
  source,
  landingPage,
  sessions,
});

/** Sessions as GA4 reports them: AI engines by host and by utm_source, and what is not an AI referral. */
const ROWS: FakeRow[] = [
  row("20261120", "chatgpt.com", "/pricing", 5),
  row("20261115", "chatgpt.com", "/pricing", 2),
  row("20261119", "perplexity", "/blog/post", 3), // utm_source=perplexity
  row("20261119", "perplexity.ai", "/blog/post", 1),
  row("20261118", "gemini.google.com", "/", 2),
  row("20261117", "claude.ai", "/docs", 1),
  row("20261116", "copilot.microsoft.com", "/pricing", 1),
  row("20261120", "openai-news.example", "/", 4), // looks like an engine's, maps to none
  row("20261120", "google", "/", 100), // organic search: filtered out by Google
  row("20261001", "chatgpt.com", "/old", 9), // before the synced days
];

function sync(h: Harness, b: Brand, body: Record<string, unknown> = {}) {
  return h.call("syncProjectTrafficGa4", { key: b.tenant.key, params: { id: b.projectId }, body });
}

describeEachDialect(
  "GA4 referrals (issue 26)",
  (h) => {
    let google: FakeGoogle;
    beforeEach(async () => {
      google = await startFakeGoogle();
    });
    afterEach(async () => {
      await google.close();
    });

    it("connects with a service account key, answers it without the key, and keeps the key only encrypted", async () => {
      const b = await brand(h);
      const key = google.keyFile();
      const put = await h.call("connectProjectTrafficGa4", {
        key: b.tenant.key,
        params: { id: b.projectId },
        body: { property_id: `properties/${PROPERTY}`, service_account_key: key },
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({
        object: "traffic_ga4_connection",
        project_id: b.projectId,
        property_id: PROPERTY,
        client_email: google.clientEmail,
        last_synced_at: null,
        last_error: null,
      });
      const got = await h.call("getProjectTrafficGa4", { key: b.tenant.key, params: { id: b.projectId } });
      expect(got.json()).toEqual(put.json());
      const pem = google.privateKey.split("\n")[1] ?? "";
      expect(pem.length).toBeGreaterThan(40);
      for (const body of [put.body, got.body]) {
        expect(body).not.toContain("PRIVATE KEY");
        expect(body).not.toContain(pem);
        expect(body).not.toContain("private_key");
      }
      // At rest: the key's JSON, encrypted; nothing of the private key in clear in any column.
      const stored = await h.deps.db
        .selectFrom("traffic_ga4_connections")
        .selectAll()
        .where("project_id", "=", b.projectId)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(stored)).not.toContain(pem);
      expect(JSON.stringify(stored)).not.toContain("PRIVATE KEY");
      expect(stored.credentials).toMatch(/^v1\./);
      expect(JSON.parse(h.deps.secrets.decrypt(stored.credentials))).toMatchObject({
        client_email: google.clientEmail,
        private_key: key.private_key,
        token_uri: google.tokenUri,
      });
      // Connecting again replaces the connection.
      const again = await h.call("connectProjectTrafficGa4", {
        key: b.tenant.key,
        params: { id: b.projectId },
        body: { property_id: "42", service_account_key: key },
      });
      expect(again.json()).toMatchObject({ property_id: "42", created_at: put.json().created_at });
      expect(
        await h.deps.db
          .selectFrom("traffic_ga4_connections")
          .where("project_id", "=", b.projectId)
          .select("property_id")
          .execute(),
      ).toEqual([{ property_id: "42" }]);
    });

    it("refuses a bad key or property with VALIDATION_ERROR naming the field", async () => {
      const b = await brand(h);
      const cases: [Record<string, unknown>, string][] = [
        [
          { property_id: PROPERTY, service_account_key: google.keyFile({ client_email: undefined }) },
          "service_account_key.client_email",
        ],
        [
          { property_id: PROPERTY, service_account_key: google.keyFile({ private_key: "not a key" }) },
          "service_account_key.private_key",
        ],
        [
          { property_id: PROPERTY, service_account_key: google.keyFile({ type: "authorized_user" }) },
          "service_account_key.type",
        ],
        [
          { property_id: PROPERTY, service_account_key: google.keyFile({ token_uri: "ftp://example.com/token" }) },
          "service_account_key.token_uri",
        ],
        [{ property_id: PROPERTY, service_account_key: "{}" }, "service_account_key"],
        [{ property_id: "UA-1234-5", service_account_key: google.keyFile() }, "property_id"],
        [{ service_account_key: google.keyFile() }, "property_id"],
      ];
      for (const [body, field] of cases) {
        const res = await h.call("connectProjectTrafficGa4", { key: b.tenant.key, params: { id: b.projectId }, body });
        expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
        expect(res.json().error.code).toBe("VALIDATION_ERROR");
        expect(res.json().error.details.map((d: { field?: string }) => d.field)).toContain(field);
        expect(res.body).not.toContain("PRIVATE KEY");
      }
      expect(
        await h.deps.db
          .selectFrom("traffic_ga4_connections")
          .where("project_id", "=", b.projectId)
          .selectAll()
          .execute(),
      ).toEqual([]);
    });

    it("syncs: a signed token, the report page by page, visits counted by engine and page; syncing again counts nothing twice", async () => {
      const b = await brand(h);
      await connected(b, google);
      google.rows = ROWS;
      google.maxPageRows = 3; // eight rows match: three pages

      const first = await sync(h, b, { days: 30 });
      expect(first.statusCode, first.body).toBe(200);
      expect(google.problems).toEqual([]);
      expect(first.json()).toEqual({
        object: "traffic_ga4_sync",
        project_id: b.projectId,
        property_id: PROPERTY,
        from: "2026-10-23",
        to: "2026-11-22",
        rows: 8,
        referrals: 15,
        ignored: 4,
        engines: [
          { engine: "chatgpt", visits: 7 },
          { engine: "perplexity", visits: 4 },
          { engine: "gemini", visits: 2 },
          { engine: "claude", visits: 1 },
          { engine: "copilot", visits: 1 },
        ],
        synced_at: "2026-11-21T12:00:00.000Z",
      });
      // One token, then three pages of the report, each with the token and the same query.
      const paths = google.calls.map((call) => call.path);
      expect(paths).toEqual([
        "/token",
        `/v1beta/properties/${PROPERTY}:runReport`,
        `/v1beta/properties/${PROPERTY}:runReport`,
        `/v1beta/properties/${PROPERTY}:runReport`,
      ]);
      const bodies = google.calls.slice(1).map((call) => JSON.parse(call.body));
      expect(bodies.map((body) => body.offset)).toEqual([0, 3, 6]);
      expect(bodies[0]).toMatchObject({
        dateRanges: [{ startDate: "2026-10-23", endDate: "2026-11-21" }],
        dimensions: [{ name: "date" }, { name: "sessionSource" }, { name: "landingPage" }],
        metrics: [{ name: "sessions" }],
        dimensionFilter: { filter: { fieldName: "sessionSource", stringFilter: { matchType: "PARTIAL_REGEXP" } } },
      });

      const traffic = async () =>
        (await h.call("getProjectTraffic", { key: b.tenant.key, params: { id: b.projectId } })).json();
      const counted = await traffic();
      expect(counted.totals.referrals).toBe(15);
      expect(counted.referrals_by_source).toEqual({ logs: 0, ga4: 15 });
      expect(counted.engines).toEqual(first.json().engines);
      expect(counted.days).toContainEqual({ day: "2026-11-20", bot_hits: 0, referrals: 5 });

      const pages = (await h.call("getProjectTrafficPages", { key: b.tenant.key, params: { id: b.projectId } })).json();
      const visits = Object.fromEntries(
        pages.data.map((p: { path: string; referrals: { by_engine: unknown[] } }) => [p.path, p.referrals.by_engine]),
      );
      expect(visits).toEqual({
        "/pricing": [
          { engine: "chatgpt", visits: 7 },
          { engine: "copilot", visits: 1 },
        ],
        "/blog/post": [{ engine: "perplexity", visits: 4 }],
        "/": [{ engine: "gemini", visits: 2 }],
        "/docs": [{ engine: "claude", visits: 1 }],
      });

      // Again: the same counts, not twice them.
      const second = await sync(h, b, { days: 30 });
      expect(second.json().referrals).toBe(15);
      expect(await traffic()).toEqual(counted);
      // GA4 corrects a day (late data): the day is replaced, not added to.
      google.rows = ROWS.map((r) => (r.date === "20261120" && r.source === "chatgpt.com" ? { ...r, sessions: 6 } : r));
      await sync(h, b, { days: 30 });
      expect((await traffic()).totals.referrals).toBe(16);

      const connection = await h.call("getProjectTrafficGa4", { key: b.tenant.key, params: { id: b.projectId } });
      expect(connection.json()).toMatchObject({ last_synced_at: "2026-11-21T12:00:00.000Z", last_error: null });
      expect(google.problems).toEqual([]);
    });

    it("shows log-derived and GA4 visits together, a visit both saw counted once", async () => {
      const b = await brand(h);
      const line = (day: string, path: string, referrer: string) =>
        `203.0.113.9 - - [${day}/Nov/2026:10:00:00 +0000] "GET ${path} HTTP/1.1" 200 100 "${referrer}" "Mozilla/5.0 Person"`;
      const log = [
        line("20", "/pricing", "https://chatgpt.com/"),
        line("20", "/pricing", "https://chatgpt.com/"),
        line("20", "/pricing", "https://chatgpt.com/"),
        line("19", "/about", "https://www.perplexity.ai/search"),
        line("19", "/about", "https://www.perplexity.ai/search"),
      ].join("\n");
      await importTrafficLogs(b.ctx, b.projectId, { body: Readable.from([log]), source: "cli" });
      await connected(b, google);
      google.rows = [row("20261120", "chatgpt.com", "/pricing", 5), row("20261118", "gemini.google.com", "/", 2)];
      expect((await sync(h, b)).statusCode).toBe(200);

      const traffic = (await h.call("getProjectTraffic", { key: b.tenant.key, params: { id: b.projectId } })).json();
      expect(traffic.referrals_by_source).toEqual({ logs: 5, ga4: 7 });
      // /pricing on the 20th: logs 3, GA4 5 → 5; perplexity from the logs, gemini from GA4.
      expect(traffic.totals.referrals).toBe(9);
      expect(traffic.engines).toEqual([
        { engine: "chatgpt", visits: 5 },
        { engine: "gemini", visits: 2 },
        { engine: "perplexity", visits: 2 },
      ]);
      const chatgpt = (
        await h.call("getProjectTraffic", {
          key: b.tenant.key,
          params: { id: b.projectId },
          query: { engine: "chatgpt" },
        })
      ).json();
      expect(chatgpt.totals.referrals).toBe(5);
      expect(chatgpt.referrals_by_source).toEqual({ logs: 3, ga4: 5 });
      // The log's rows are untouched by syncing; GA4's are apart, under their own host.
      await sync(h, b);
      const rows = await h.deps.db
        .selectFrom("traffic_referrals")
        .select(["host", "path", "engine", "visits"])
        .where("project_id", "=", b.projectId)
        .orderBy("host")
        .orderBy("path")
        .execute();
      expect(rows.map((r) => ({ ...r, visits: Number(r.visits) }))).toEqual([
        { host: "", path: "/about", engine: "perplexity", visits: 2 },
        { host: "", path: "/pricing", engine: "chatgpt", visits: 3 },
        { host: GA4_HOST, path: "/", engine: "gemini", visits: 2 },
        { host: GA4_HOST, path: "/pricing", engine: "chatgpt", visits: 5 },
      ]);
    });

    it("answers Google's refusals and failures as clear errors, recorded on the connection, never a 500", async () => {
      const b = await brand(h);
      await connected(b, google);
      google.refuseTokens = true;
      const refused = await sync(h, b);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error).toMatchObject({
        code: "VALIDATION_ERROR",
        details: [{ field: "service_account_key" }],
      });
      expect(refused.json().error.message).toContain("Google refused the service account key");
      expect(refused.json().error.message).toContain("invalid_grant");
      const connection = await h.call("getProjectTrafficGa4", { key: b.tenant.key, params: { id: b.projectId } });
      expect(connection.json().last_error).toContain("invalid_grant");
      expect(connection.json().last_synced_at).toBeNull();

      google.refuseTokens = false;
      // A key file whose private key is not the account's (an old or another account's key).
      const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
        type: "pkcs8",
        format: "pem",
      });
      const mismatched = await brand(h);
      await connectGa4(
        mismatched.ctx,
        mismatched.projectId,
        { property_id: PROPERTY, service_account_key: google.keyFile({ private_key: stranger.toString() }) },
        { dataApiUrl: google.url },
      );
      const unsigned = await sync(h, mismatched);
      expect(unsigned.statusCode, unsigned.body).toBe(400);
      expect(unsigned.json().error.details[0].field).toBe("service_account_key");
      expect(google.problems).toEqual([
        "the assertion's signature does not verify with the service account's public key",
      ]);
      google.problems.length = 0;

      const other = await brand(h);
      await connected(other, google, "987654321"); // the account is no Viewer of it
      const denied = await sync(h, other);
      expect(denied.statusCode, denied.body).toBe(400);
      expect(denied.json().error.details).toEqual([{ field: "property_id", issue: expect.stringContaining("Viewer") }]);
      expect(denied.json().error.message).toContain(google.clientEmail);

      google.unavailable = true;
      const failed = await sync(h, b);
      expect(failed.statusCode, failed.body).toBe(502);
      expect(failed.json().error.code).toBe("ENGINE_FAILURE");
      expect(failed.json().error.message).toContain("try again later");

      google.unavailable = false;
      const ok = await sync(h, b);
      expect(ok.statusCode, ok.body).toBe(200);
      const after = await h.call("getProjectTrafficGa4", { key: b.tenant.key, params: { id: b.projectId } });
      expect(after.json().last_error).toBeNull();
      expect(google.problems).toEqual([]);
    });

    it("keeps each workspace's connection its own", async () => {
      const owner = await brand(h);
      await connected(owner, google);
      const stranger = await h.tenant();
      const params = { id: owner.projectId };
      for (const operationId of ["getProjectTrafficGa4", "disconnectProjectTrafficGa4", "syncProjectTrafficGa4"]) {
        const res = await h.call(operationId, { key: stranger.key, params });
        expect(res.statusCode, `${operationId}: ${res.body}`).toBe(404);
        expect(res.body).not.toContain(google.clientEmail);
      }
      const put = await h.call("connectProjectTrafficGa4", {
        key: stranger.key,
        params,
        body: { property_id: "1", service_account_key: google.keyFile() },
      });
      expect(put.statusCode).toBe(404);
      const mine = await h.call("getProjectTrafficGa4", { key: owner.tenant.key, params });
      expect(mine.json()).toMatchObject({ property_id: PROPERTY, client_email: google.clientEmail });
      expect(google.calls).toEqual([]);
    });

    it("disconnects: the key is gone, the visits it counted stay", async () => {
      const b = await brand(h);
      await connected(b, google);
      google.rows = ROWS;
      await sync(h, b);
      const gone = await h.call("disconnectProjectTrafficGa4", { key: b.tenant.key, params: { id: b.projectId } });
      expect(gone.json()).toEqual({ object: "traffic_ga4_connection", project_id: b.projectId, deleted: true });
      expect(
        (await h.call("getProjectTrafficGa4", { key: b.tenant.key, params: { id: b.projectId } })).statusCode,
      ).toBe(404);
      expect((await sync(h, b)).statusCode).toBe(404);
      expect(
        await h.deps.db
          .selectFrom("traffic_ga4_connections")
          .where("project_id", "=", b.projectId)
          .selectAll()
          .execute(),
      ).toEqual([]);
      const traffic = (await h.call("getProjectTraffic", { key: b.tenant.key, params: { id: b.projectId } })).json();
      expect(traffic.referrals_by_source.ga4).toBe(15);
    });
  },
  { config: { webhookAllowPrivate: true } },
);

// Its own database: the scheduler syncs every connection that is due, and other tests leave theirs.
describeEachDialect(
  "GA4's daily sync by the worker (issue 26)",
  (h) => {
    let google: FakeGoogle;
    beforeEach(async () => {
      google = await startFakeGoogle();
    });
    afterEach(async () => {
      await google.close();
    });

    it("is synced daily by the worker's scheduler: the first time 30 days, then the last 3", async () => {
      const b = await brand(h);
      await connected(b, google);
      google.rows = ROWS;
      const start = h.clock.now();
      const syncedAt = async () =>
        (
          await h.deps.db
            .selectFrom("traffic_ga4_connections")
            .select(["last_synced_at", "last_error"])
            .where("project_id", "=", b.projectId)
            .executeTakeFirstOrThrow()
        ).last_synced_at;
      try {
        await schedulerTick(h.deps);
        expect(await syncedAt()).toBe(start.toISOString());
        const ranges = () =>
          google.calls.filter((c) => c.path.endsWith(":runReport")).map((c) => JSON.parse(c.body).dateRanges[0]);
        expect(ranges()).toEqual([{ startDate: "2026-10-23", endDate: "2026-11-21" }]);
        await schedulerTick(h.deps); // not due again yet
        expect(ranges()).toHaveLength(1);
        h.clock.set(start.getTime() + 86_400_000);
        await schedulerTick(h.deps);
        expect(ranges()).toEqual([
          { startDate: "2026-10-23", endDate: "2026-11-21" },
          { startDate: "2026-11-20", endDate: "2026-11-22" },
        ]);
        const traffic = (await h.call("getProjectTraffic", { key: b.tenant.key, params: { id: b.projectId } })).json();
        expect(traffic.totals.referrals).toBe(15);
        expect(google.problems).toEqual([]);
      } finally {
        h.clock.set(start);
      }
    });
  },
  { config: { webhookAllowPrivate: true } },
);

describe("GA4's outbound address rules (issue 26)", () => {
  const h = useHarness("sqlite");

  it("refuses a token_uri on a private address unless the operator allows private addresses", async () => {
    const b = await brand(h);
    const google = await startFakeGoogle();
    try {
      for (const tokenUri of [google.tokenUri, "http://169.254.169.254/token", "http://10.0.0.1/token"]) {
        const res = await h.call("connectProjectTrafficGa4", {
          key: b.tenant.key,
          params: { id: b.projectId },
          body: { property_id: PROPERTY, service_account_key: google.keyFile({ token_uri: tokenUri }) },
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().error.details[0]).toMatchObject({ field: "service_account_key.token_uri" });
      }
    } finally {
      await google.close();
    }
  });

  it("maps session sources to engines as referrers and utm_source values are", () => {
    expect(
      ["chatgpt.com", "www.perplexity.ai", "perplexity", "gemini.google.com", "copilot.microsoft.com", "claude.ai"].map(
        engineOfSource,
      ),
    ).toEqual(["chatgpt", "perplexity", "perplexity", "gemini", "copilot", "claude"]);
    expect(["google", "(direct)", "(not set)", "", "bing", "openai-news.example"].map(engineOfSource)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
