import { beforeAll, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";

const brand = (name: string, domain: string) => ({
  name,
  primary_domain: domain,
  competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }],
  prompts: ["best CRM for a small agency", "CRM with a good Slack integration"],
});

interface Share {
  id: string;
  url: string;
  expires_at: string;
  revoked_at: string | null;
  active: boolean;
}

describeEachDialect("shared report links", (h) => {
  let t: Tenant;
  let reportId: string;
  let reportTitle: string;
  let otherTitle: string;
  let origin: string;

  /** The link's path: the server under test answers it, whatever public URL the links are made for. */
  const pathOf = (share: Share) => new URL(share.url).pathname;
  const open = (share: Share, query = "") => h.app.inject({ method: "GET", url: `${pathOf(share)}${query}` });
  const create = async (body?: unknown) => {
    const res = await h.call("createReportShare", { key: t.key, params: { id: reportId }, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Share;
  };

  beforeAll(async () => {
    await h.startWorker();
    t = await h.tenant("agency");
    const reportOf = async (name: string, domain: string) => {
      const projectId = (await h.call("createProject", { key: t.key, body: brand(name, domain) })).json().id;
      const res = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, engines: ["sandbox"], samples: 2, wait: 30 },
      });
      expect(res.statusCode, res.body).toBe(200);
      const [listed] = (await h.call("listReports", { key: t.key, query: { project_id: projectId } })).json().data;
      return listed as { id: string; title: string };
    };
    const shared = await reportOf("Acme CRM", "acmecrm.com");
    reportId = shared.id;
    reportTitle = shared.title;
    otherTitle = (await reportOf("Globex Sales", "globex.example")).title;
    origin = await h.app.listen({ port: 0, host: "127.0.0.1" });
  });

  it("opens the report's page without an account, for 30 days by default, and nothing else", async () => {
    const share = await create();
    expect(share).toMatchObject({ object: "report_share", report_id: reportId, revoked_at: null, active: true });
    expect(Date.parse(share.expires_at) - h.clock.now().getTime()).toBe(30 * 86_400_000);
    expect(share.url).toMatch(/\/shared\/reports\/rsh_[0-9A-Za-z]{24}\.[A-Za-z0-9_-]{43}$/);

    const page = await open(share);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.headers["cache-control"]).toBe("private, no-store");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    expect(page.headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect(page.body).toContain(reportTitle);
    // That report only: not the workspace's other brand, and no link anywhere.
    expect(page.body).not.toContain(otherTitle);
    expect(page.body).not.toContain("Globex");
    expect(page.body).not.toMatch(/<a\s|<script|<link\s/i);

    const pdf = await open(share, "?format=pdf");
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // The link carries no authority over the API.
    const token = pathOf(share).split("/").at(-1) ?? "";
    const api = await h.app.inject({
      method: "GET",
      url: `/v1/reports/${reportId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(api.statusCode).toBe(401);
  });

  it("opens in Chromium with no session, charts drawn, and 404s after revocation", async () => {
    const share = await create({ expires_in_days: 7 });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const requests: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      const url = `${origin}${pathOf(share)}`;
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await expect(page.title()).resolves.toBe(reportTitle);
      expect(await page.locator("svg.chart").count()).toBeGreaterThanOrEqual(4);
      expect(await page.locator("h1").textContent()).toBe(reportTitle);
      expect(await context.cookies()).toEqual([]);
      // One request: the page itself; it fetches nothing else.
      expect(requests).toEqual([url]);

      const revoked = await h.call("revokeReportShare", {
        key: t.key,
        params: { id: reportId, share_id: share.id },
      });
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json()).toMatchObject({ id: share.id, active: false });
      expect(revoked.json().revoked_at).not.toBeNull();
      const again = await page.goto(url);
      expect(again?.status()).toBe(404);
      expect(await page.locator("h1").textContent()).toBe("This link is not available");
      expect(await page.content()).not.toContain(reportTitle);
    } finally {
      await browser.close();
    }
    // Revoking twice keeps the first time.
    const first = (await h.call("listReportShares", { key: t.key, params: { id: reportId } })).json().data;
    const twice = await h.call("revokeReportShare", { key: t.key, params: { id: reportId, share_id: share.id } });
    expect(twice.json().revoked_at).toBe(first.find((s: Share) => s.id === share.id).revoked_at);
  });

  it("404s once expired", async () => {
    const share = await create({ expires_in_days: 1 });
    expect((await open(share)).statusCode).toBe(200);
    h.clock.advance(86_400_000 - 1_000);
    expect((await open(share)).statusCode).toBe(200);
    h.clock.advance(2_000);
    const gone = await open(share);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain(reportTitle);
    const listed = (await h.call("listReportShares", { key: t.key, params: { id: reportId } })).json().data;
    expect(listed.find((s: Share) => s.id === share.id)).toMatchObject({ active: false, revoked_at: null });
  });

  it("cannot be forged: a changed signature, another share's signature or a bare id is 404", async () => {
    const a = await create();
    const b = await create();
    const [idA, sigA] = (pathOf(a).split("/").at(-1) ?? "").split(".");
    const [, sigB] = (pathOf(b).split("/").at(-1) ?? "").split(".");
    const flipped = `${sigA?.slice(0, -1)}${sigA?.endsWith("A") ? "B" : "A"}`;
    for (const token of [`${idA}.${flipped}`, `${idA}.${sigB}`, `${idA}`, `${idA}.`, "x".repeat(300), "%00"]) {
      const res = await h.app.inject({ method: "GET", url: `/shared/reports/${token}` });
      expect(res.statusCode, token).toBe(404);
      expect(res.headers["content-type"]).toContain("text/html");
    }
    expect((await open(a, "?format=exe")).statusCode).toBe(404);
  });

  it("refuses bad input and other workspaces, changing nothing", async () => {
    const before = (await h.call("listReportShares", { key: t.key, params: { id: reportId } })).json().data.length;
    for (const body of [{ expires_in_days: 0 }, { expires_in_days: 366 }, { expires_in_days: "7" }, { days: 7 }]) {
      const res = await h.call("createReportShare", { key: t.key, params: { id: reportId }, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
    const other = await h.tenant("agency");
    expect((await h.call("createReportShare", { key: other.key, params: { id: reportId } })).statusCode).toBe(404);
    expect((await h.call("listReportShares", { key: other.key, params: { id: reportId } })).statusCode).toBe(404);
    const [share] = (await h.call("listReportShares", { key: t.key, params: { id: reportId } })).json().data;
    const revoke = await h.call("revokeReportShare", {
      key: other.key,
      params: { id: reportId, share_id: share.id },
    });
    expect(revoke.statusCode).toBe(404);
    const after = (await h.call("listReportShares", { key: t.key, params: { id: reportId } })).json().data;
    expect(after).toHaveLength(before);
    expect(after.find((s: Share) => s.id === share.id).revoked_at).toBe(share.revoked_at);
    // Without the reports scope, no link.
    const reader = await h.key(t.workspace.id, ["read"]);
    const res = await h.call("createReportShare", { key: reader, params: { id: reportId } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("INSUFFICIENT_SCOPE");
  });
});
