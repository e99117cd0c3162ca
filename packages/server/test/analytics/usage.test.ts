import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.ts";
import { DEFAULT_PLANS } from "../../src/services/plans/catalog.ts";
import { reserveCredits } from "../../src/services/usage/credits.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { describeEachDialect } from "../helpers/harness.ts";

describeEachDialect("GET /v1/usage", (h) => {
  it("reports the period, requests by endpoint, credits by engine and the rate-limit window", async () => {
    const t = await h.tenant("growth", ["read", "projects", "usage"]);
    for (let i = 0; i < 3; i++) await h.call("listProjects", { key: t.key });
    await h.call("createProject", { key: t.key, body: { name: "Acme", primary_domain: "acme.com" } });
    await h.call("getProject", { key: t.key, params: { id: "prj_missing" } });
    await h.runtime.flush(); // some counts written, the rest pending in memory: both are reported
    await h.call("listProjects", { key: t.key });
    await reserveCredits(await workspaceContext(h.deps, t.workspace.id), {
      charges: [
        { engine: "sandbox", credits: 12 },
        { engine: "chatgpt", credits: 3 },
      ],
      reference: "ana_x",
    });

    const res = await h.call("getUsage", { key: t.key });
    expect(res.statusCode).toBe(200);
    const usage = res.json();
    expect(usage).toMatchObject({
      object: "usage",
      workspace_id: t.workspace.id,
      plan: "growth",
      period: { start: "2026-11-21T00:00:00.000Z", end: "2026-12-21T00:00:00.000Z" },
      requests: {
        total: 6,
        by_endpoint: { "GET /v1/projects": 4, "POST /v1/projects": 1, "GET /v1/projects/:id": 1 },
      },
      credits: { allowance: 10_000, used: 15, remaining: 9_985, by_engine: { sandbox: 12, chatgpt: 3 } },
      rate_limit: { enabled: true, limit: 300, window_seconds: 60 },
    });
    expect(usage.rate_limit.remaining).toBe(Number(res.headers["x-ratelimit-remaining"]));
    expect(usage.rate_limit.reset).toBe(Number(res.headers["x-ratelimit-reset"]));

    // The usage call itself is counted too, once it is done.
    const again = (await h.call("getUsage", { key: t.key })).json();
    expect(again.requests.by_endpoint["GET /v1/usage"]).toBe(1);
    expect(again.requests.total).toBe(7);
  });

  it("keeps each workspace's usage to itself", async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    await h.call("listProjects", { key: a.key });
    const usage = (await h.call("getUsage", { key: b.key })).json();
    expect(usage.requests.total).toBe(0);
    expect(usage.workspace_id).toBe(b.workspace.id);
  });
});

describeEachDialect(
  "GET /v1/usage with rate limits and metering off",
  (h) => {
    it("says so, and sends no rate-limit headers", async () => {
      const t = await h.tenant();
      await h.call("listProjects", { key: t.key });
      const res = await h.call("getUsage", { key: t.key });
      expect(res.headers["x-ratelimit-limit"]).toBeUndefined();
      expect(res.json().rate_limit).toEqual({
        enabled: false,
        limit: null,
        remaining: null,
        reset: null,
        window_seconds: null,
      });
      expect(res.json().requests.total).toBe(0);
    });
  },
  { config: { rateLimits: false, requestMetering: false } },
);

describe("plan catalog file", () => {
  function withFile(name: string, text: string, test: (path: string) => void) {
    const dir = mkdtempSync(join(tmpdir(), "sightline-plans-"));
    try {
      const path = join(dir, name);
      writeFileSync(path, text);
      test(path);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("overrides the defaults from YAML or JSON, field by field", () => {
    withFile(
      "plans.yaml",
      "growth:\n  requests_per_minute: 600\n  engines: [sandbox, claude]\nagency:\n  engines: all\n",
      (path) => {
        const { plans } = loadConfig({ SIGHTLINE_PLANS: path }, "/");
        expect(plans.growth).toEqual({
          ...DEFAULT_PLANS.growth,
          requestsPerMinute: 600,
          engines: ["sandbox", "claude"],
        });
        expect(plans.agency.engines).toEqual(DEFAULT_PLANS.agency.engines);
        expect(plans.free).toEqual(DEFAULT_PLANS.free);
      },
    );
    withFile("plans.json", JSON.stringify({ free: { credits_per_month: 5 } }), (path) => {
      expect(loadConfig({ SIGHTLINE_PLANS: path }, "/").plans.free.creditsPerMonth).toBe(5);
    });
  });

  it("refuses a bad file at start, naming the variable and the problem", () => {
    const cases: [string, string, string][] = [
      ["plans.yaml", "growth:\n  requests_per_minute: -1\n", "/growth/requests_per_minute"],
      ["plans.yaml", "platinum:\n  credits_per_month: 1\n", "additional properties"],
      ["plans.json", "{ not json", "cannot be parsed"],
      ["plans.yaml", "growth:\n  engines: [sandbox, bard]\n", "/growth/engines names 'bard'"],
      ["plans.yaml", "free:\n  api_access: true\n", "no requests_per_minute"],
    ];
    for (const [name, text, message] of cases) {
      withFile(name, text, (path) => {
        let error: unknown;
        try {
          loadConfig({ SIGHTLINE_PLANS: path }, "/");
        } catch (e) {
          error = e;
        }
        expect(error, text).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).problems[0]).toContain("SIGHTLINE_PLANS");
        expect((error as ConfigError).problems[0]).toContain(message);
      });
    }
    expect(() => loadConfig({ SIGHTLINE_PLANS: "/nonexistent/plans.yaml" }, "/")).toThrow(/SIGHTLINE_PLANS/);
  });
});

describeEachDialect("usage in the operator CLI", (h) => {
  it("shows a workspace's usage as JSON", async () => {
    const ws = await h.workspace("agency");
    await reserveCredits(await workspaceContext(h.deps, ws.id), {
      charges: [{ engine: "claude", credits: 7 }],
      reference: "ana_cli",
    });
    const result = await runCliInProcess(["usage", "show", "--workspace", ws.id, "--json"], {
      DATABASE_URL: h.database.url,
    });
    expect(result.code, result.stderr).toBe(0);
    const usage = JSON.parse(result.stdout);
    expect(usage.credits).toMatchObject({ allowance: 100_000, used: 7, by_engine: { claude: 7 } });
    const missing = await runCliInProcess(["usage", "show", "--workspace", "ws_nope"], {
      DATABASE_URL: h.database.url,
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No workspace with id 'ws_nope'");
  });
});
