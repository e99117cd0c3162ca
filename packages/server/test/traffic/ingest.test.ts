import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { createProject } from "../../src/services/projects/projects.ts";
import { createIngestToken } from "../../src/services/traffic/ingest-tokens.ts";
import { logLines } from "../../src/services/traffic/read.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { dashboard, type Session, signUp } from "../helpers/dashboard.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";

// Ranges of this test's own (documentation addresses), so it does not move with the shipped file.
const dir = mkdtempSync(join(tmpdir(), "sightline-ingest-"));
const rangesFile = join(dir, "ranges.json");
writeFileSync(rangesFile, JSON.stringify({ GPTBot: ["192.0.2.0/25"], "OAI-SearchBot": ["192.0.2.128/25"] }));

/** The error body's `error`, as the spec writes it. */
async function errorOf(response: Response): Promise<{ code: string; message: string; details: unknown }> {
  return ((await response.json()) as { error: { code: string; message: string; details: unknown } }).error;
}

const HUMAN_IP = "203.0.113.77";
const HUMAN_AGENT = "Mozilla/5.0 (X11; Linux x86_64) HumanBrowser/99.1";

function combined(ip: string, time: string, path: string, status: number, referrer: string, agent: string): string {
  return `${ip} - - [${time}] "GET ${path} HTTP/1.1" ${status} 512 "${referrer}" "${agent}"`;
}

/** Two verified GPTBot hits, a spoofed one, an OAI-SearchBot 404, two AI referrals, two humans, a bad line. */
const PUSH = [
  combined("192.0.2.10", "20/Nov/2026:08:00:00 +0000", "/pricing", 200, "-", "Mozilla/5.0; compatible; GPTBot/1.2"),
  combined("192.0.2.11", "20/Nov/2026:09:00:00 +0000", "/pricing", 200, "-", "Mozilla/5.0; compatible; GPTBot/1.2"),
  combined("198.51.100.9", "20/Nov/2026:10:00:00 +0000", "/pricing", 200, "-", "Mozilla/5.0; compatible; GPTBot/1.2"),
  combined("192.0.2.140", "20/Nov/2026:11:00:00 +0000", "/old", 404, "-", "Mozilla/5.0; compatible; OAI-SearchBot/1.0"),
  combined(HUMAN_IP, "20/Nov/2026:12:00:00 +0000", "/pricing", 200, "https://chatgpt.com/", HUMAN_AGENT),
  combined(HUMAN_IP, "20/Nov/2026:12:01:00 +0000", "/guide", 200, "https://www.perplexity.ai/search", HUMAN_AGENT),
  combined(HUMAN_IP, "20/Nov/2026:12:02:00 +0000", "/", 200, "https://www.google.com/", HUMAN_AGENT),
  combined(HUMAN_IP, "20/Nov/2026:12:03:00 +0000", "/about", 200, "-", HUMAN_AGENT),
  "not a log line at all",
  "",
].join("\n");

describeEachDialect(
  "pushing access logs over HTTP (issue 26)",
  (h: Harness) => {
    let owner: Session;
    let projectId: string;
    let otherProjectId: string;
    let token: string;
    let tokenId: string;
    let key: string;
    let base: string;

    const v1 = (path: string) => `/app/api/workspaces/${owner.workspaceId}/v1${path}`;
    const app = (path: string) => `/app/api/workspaces/${owner.workspaceId}${path}`;

    beforeAll(async () => {
      owner = await signUp(h, { workspace_name: "Acme" });
      const brand = await dashboard(h, "POST", v1("/projects"), {
        cookie: owner.cookie,
        body: { name: "Acme", primary_domain: "acme.example", prompts: ["best crm"] },
      });
      expect(brand.statusCode, brand.body).toBe(201);
      projectId = brand.json().id;
      const other = await dashboard(h, "POST", v1("/projects"), {
        cookie: owner.cookie,
        body: { name: "Other", primary_domain: "other.example", prompts: ["best crm"] },
      });
      otherProjectId = other.json().id;
      key = await h.key(owner.workspaceId, ["projects"]);
      const made = await dashboard(h, "POST", app(`/projects/${projectId}/ingest-tokens`), {
        cookie: owner.cookie,
        body: { name: "Cloudflare Logpush" },
      });
      expect(made.statusCode, made.body).toBe(201);
      token = made.json().token;
      tokenId = made.json().id;
      await h.app.listen({ host: "127.0.0.1", port: 0 });
      base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    });

    const push = (body: string | Uint8Array, headers: Record<string, string>, project = projectId) =>
      fetch(`${base}/v1/projects/${project}/traffic/logs`, { method: "POST", headers, body });

    it("makes an ingest token shown once, listed by its start, kept only as a hash", async () => {
      expect(token).toMatch(/^sl_ingest_[0-9A-Za-z]{32}$/);
      const list = await dashboard(h, "GET", app(`/projects/${projectId}/ingest-tokens`), { cookie: owner.cookie });
      expect(list.statusCode).toBe(200);
      const [listed] = list.json().data;
      expect(listed).toMatchObject({ id: tokenId, name: "Cloudflare Logpush", status: "active" });
      expect(token.startsWith(listed.start)).toBe(true);
      expect(list.body).not.toContain(token);
      const rows = await h.deps.db.selectFrom("traffic_ingest_tokens").selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it("counts a gzipped drain push over HTTP with its token, once however often it is sent", async () => {
      const headers = {
        authorization: `Bearer ${token}`,
        "content-type": "text/plain",
        "content-encoding": "gzip",
      };
      const first = await push(gzipSync(PUSH), headers);
      expect(first.status, await first.clone().text()).toBe(200);
      const counted = (await first.json()) as { id: string; reasons: unknown[] };
      expect(counted).toMatchObject({
        object: "traffic_import",
        project_id: projectId,
        duplicate: false,
        format: "combined",
        lines: 9,
        bot_hits: 4,
        referrals: 2,
        ignored: 2,
        rejected: 1,
      });
      expect(counted.reasons).toHaveLength(1);
      const again = await push(gzipSync(PUSH), headers);
      expect(await again.json()).toMatchObject({ id: counted.id, duplicate: true, bot_hits: 4 });

      const traffic = await h.call("getProjectTraffic", {
        key,
        params: { id: projectId },
        query: { from: "2026-11-01T00:00:00Z", to: "2026-11-30T00:00:00Z" },
      });
      expect(traffic.statusCode, traffic.body).toBe(200);
      const { bots, totals } = traffic.json();
      const gptbot = bots.filter((b: { bot: string }) => b.bot === "GPTBot");
      const hitsOf = (verification: string) =>
        gptbot.find((b: { verification: string }) => b.verification === verification)?.hits;
      expect(hitsOf("verified")).toBe(2);
      expect(hitsOf("spoofed")).toBe(1);
      expect(totals.referrals).toBe(2);

      const [batch] = await h.deps.db
        .selectFrom("traffic_imports")
        .selectAll()
        .where("project_id", "=", projectId)
        .execute();
      expect(batch?.source).toBe("drain");
      // Nothing of a human visitor anywhere, nor any address a line came from: every table of the
      // database read whole, whatever it is.
      const tables =
        h.dialect === "sqlite"
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(h.deps.db)
          : await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
              h.deps.db,
            );
      expect(tables.rows.map((t) => t.name)).toContain("traffic_bot_hits");
      for (const { name } of tables.rows) {
        const rows = JSON.stringify((await sql`select * from ${sql.table(name)}`.execute(h.deps.db)).rows);
        expect(rows, name).not.toContain(HUMAN_IP);
        expect(rows, name).not.toContain("HumanBrowser");
        expect(rows, name).not.toContain("198.51.100.9");
        expect(rows, name).not.toContain("192.0.2.10");
      }
    });

    it("opens the drain of its own brand only, and no other endpoint", async () => {
      const elsewhere = await push("x", { authorization: `Bearer ${token}` }, otherProjectId);
      expect(elsewhere.status).toBe(401);
      expect((await errorOf(elsewhere)).code).toBe("INVALID_API_KEY");
      const read = await fetch(`${base}/v1/projects/${projectId}/traffic`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(read.status).toBe(401);
      expect((await errorOf(read)).message).toMatch(/not a valid Sightline key/);
    });

    it("takes a push with an API key of the projects scope, and refuses a read-only key", async () => {
      const line = combined("192.0.2.20", "21/Nov/2026:08:00:00 +0000", "/api", 200, "-", "GPTBot/1.2");
      const ok = await push(line, { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ bot_hits: 1, duplicate: false });
      const reader = await h.key(owner.workspaceId, ["read"]);
      const refused = await push(line, { authorization: `Bearer ${reader}` });
      expect(refused.status).toBe(403);
      expect((await errorOf(refused)).code).toBe("INSUFFICIENT_SCOPE");
    });

    it("refuses what is not log lines with the reason, and counts nothing of it", async () => {
      const before = await h.deps.db.selectFrom("traffic_imports").select("id").execute();
      const auth = { authorization: `Bearer ${token}` };
      const cases: [string | Uint8Array, Record<string, string>, RegExp][] = [
        ["a=b", { ...auth, "content-type": "application/x-www-form-urlencoded" }, /Content-Type/],
        [PUSH, { ...auth, "content-encoding": "br" }, /Content-Encoding/],
        [gzipSync(PUSH).subarray(0, 30), auth, /gzip/],
        [Uint8Array.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6]), auth, /gzip/],
        ["", auth, /no log lines/],
        ["\n\n", auth, /no log lines/],
      ];
      for (const [body, headers, message] of cases) {
        const refused = await push(body, headers);
        expect(refused.status, String(message)).toBe(400);
        const error = await errorOf(refused);
        expect(error.code).toBe("VALIDATION_ERROR");
        expect(`${error.message} ${JSON.stringify(error.details)}`).toMatch(message);
      }
      const format = await h.call("importProjectTrafficLogs", {
        key,
        params: { id: projectId },
        query: { format: "apache" },
      });
      expect(format.statusCode).toBe(400);
      expect(await h.deps.db.selectFrom("traffic_imports").select("id").execute()).toHaveLength(before.length);
    });

    it("rejects a line whose page holds a NUL, and keeps the good lines beside it", async () => {
      const good = combined("192.0.2.40", "23/Nov/2026:08:00:00 +0000", "/ok", 200, "-", "GPTBot/1.2");
      const nul = combined("192.0.2.41", "23/Nov/2026:08:00:01 +0000", "/a\u0000b", 200, "-", "GPTBot/1.2");
      const res = await push([good, nul].join("\n"), { authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ lines: 2, bot_hits: 1, rejected: 1 });
    });

    it("takes Cloudflare's header_ parameters in the address, and pushes from a plan without API access", async () => {
      const starter = await h.workspace("starter");
      const ctx = await workspaceContext(h.deps, starter.id);
      const brand = await createProject(ctx, { name: "Small", primary_domain: "small.example", prompts: ["p"] });
      const { token: small } = await createIngestToken(ctx, brand.id, { name: "Logpush" });
      const line = combined("192.0.2.50", "24/Nov/2026:08:00:00 +0000", "/cf", 200, "-", "GPTBot/1.2");
      const res = await fetch(
        `${base}/v1/projects/${brand.id}/traffic/logs?format=combined&header_Authorization=Bearer%20${small}`,
        { method: "POST", headers: { authorization: `Bearer ${small}` }, body: line },
      );
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toMatchObject({ bot_hits: 1 });
      const unknown = await fetch(`${base}/v1/projects/${brand.id}/traffic/logs?verbose=1`, {
        method: "POST",
        headers: { authorization: `Bearer ${small}` },
        body: line,
      });
      expect(unknown.status).toBe(400);
    });

    it("agrees to take Fastly's logs, as its HTTPS logging asks of the receiving host", async () => {
      const challenge = await fetch(`${base}/.well-known/fastly/logging/challenge`);
      expect(challenge.status).toBe(200);
      expect(await challenge.text()).toBe("*\n");
    });

    it("refuses a revoked token with when it was revoked", async () => {
      const revoked = await dashboard(h, "DELETE", app(`/projects/${projectId}/ingest-tokens/${tokenId}`), {
        cookie: owner.cookie,
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(revoked.json()).toMatchObject({ status: "revoked" });
      const refused = await push(PUSH, { authorization: `Bearer ${token}` });
      expect(refused.status).toBe(401);
      expect((await errorOf(refused)).message).toMatch(/revoked on 20\d\d-/);
    });

    it("takes an upload from the dashboard as the member's, counted as an upload", async () => {
      const line = combined("192.0.2.30", "22/Nov/2026:08:00:00 +0000", "/docs", 200, "-", "GPTBot/1.2");
      const uploaded = await h.app.inject({
        method: "POST",
        url: v1(`/projects/${projectId}/traffic/logs`),
        headers: { origin: "http://localhost:8080", cookie: owner.cookie, "content-type": "text/plain" },
        payload: line,
      });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const { id } = uploaded.json();
      const row = await h.deps.db
        .selectFrom("traffic_imports")
        .select("source")
        .where("id", "=", id)
        .executeTakeFirst();
      expect(row?.source).toBe("upload");
    });

    it("keeps another workspace out of the brand's drain and its tokens", async () => {
      const stranger = await h.tenant("growth", ["projects"]);
      const pushed = await push(PUSH, { authorization: stranger.authorization });
      expect(pushed.status).toBe(404);
      expect((await errorOf(pushed)).code).toBe("NOT_FOUND");
      const theirs = await dashboard(h, "GET", app(`/projects/${projectId}/ingest-tokens`), { cookie: "nope=1" });
      expect(theirs.statusCode).toBe(401);
      const elsewhere = await dashboard(
        h,
        "GET",
        `/app/api/workspaces/${stranger.workspace.id}/projects/${projectId}/ingest-tokens`,
        {
          cookie: owner.cookie,
        },
      );
      expect([403, 404]).toContain(elsewhere.statusCode);
    });
  },
  { config: { botRangesFile: rangesFile } },
);

it("stops reading a batch past its byte limit, before anything is counted", async () => {
  const read = logLines(Readable.from([Buffer.from("a line\n".repeat(100))]), 64);
  await expect(async () => {
    for await (const _ of read.lines);
  }).rejects.toThrow(/too large/);
});
