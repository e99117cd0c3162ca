import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { buildHttpApp } from "../../src/http/app.ts";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { DEFAULT_PLANS, type PlanCatalog } from "../../src/services/plans/catalog.ts";
import { ANONYMOUS_LIMIT } from "../../src/services/rate-limits/rate-limits.ts";
import { ROUTE_FIXTURES } from "../helpers/fixtures.ts";
import { describeEachDialect, randomAddress, routeUrl } from "../helpers/harness.ts";
import { TEST_REDIS_URL, uniqueRedisPrefix } from "../helpers/redis.ts";

const STORES = [
  { name: "memory", redisUrl: null },
  { name: "Redis", redisUrl: TEST_REDIS_URL },
] as const;

function expectRateHeaders(res: LightMyRequestResponse, context: string): void {
  for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    expect(res.headers[header], `${context}: ${header}`).toMatch(/^\d+$/);
  }
}

/** A catalog whose Growth plan allows only a few requests, to reach the limit quickly. */
function tinyGrowth(limit: number): PlanCatalog {
  return { ...DEFAULT_PLANS, growth: { ...DEFAULT_PLANS.growth, requestsPerMinute: limit } };
}

for (const store of STORES) {
  describeEachDialect(
    `rate limits on ${store.name}`,
    (h) => {
      // The Redis suites must have counted in Redis: the per-process fallback would pass them too.
      afterEach(() => expect(h.deps.rateLimits?.degraded ?? false).toBe(false));

      it("lets exactly 300 of 500 concurrent requests of a Growth workspace through, over 3 keys", async () => {
        const ws = await h.workspace("growth");
        const keys = await Promise.all([1, 2, 3].map(() => h.key(ws.id, ["read"])));
        const responses = await Promise.all(
          Array.from({ length: 500 }, (_, i) =>
            h.app.inject({
              method: "GET",
              url: "/v1/projects",
              headers: { authorization: `Bearer ${keys[i % 3]}` },
              remoteAddress: randomAddress(),
            }),
          ),
        );
        const ok = responses.filter((r) => r.statusCode === 200);
        const limited = responses.filter((r) => r.statusCode === 429);
        expect(ok).toHaveLength(300);
        expect(limited).toHaveLength(200);

        // Remaining counts down 299 … 0, each value exactly once: no gaps, no repeats.
        const remaining = ok.map((r) => Number(r.headers["x-ratelimit-remaining"])).sort((a, b) => a - b);
        expect(remaining).toEqual(Array.from({ length: 300 }, (_, i) => i));
        for (const r of limited) {
          expect(r.json().error.code).toBe("RATE_LIMIT_EXCEEDED");
          expect(r.headers["x-ratelimit-remaining"]).toBe("0");
          expect(r.headers["x-ratelimit-limit"]).toBe("300");
          expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
          expect(Number(r.headers["retry-after"])).toBeLessThanOrEqual(60);
        }
        const resets = new Set(responses.map((r) => r.headers["x-ratelimit-reset"]));
        expect(Math.max(...[...resets].map(Number)) - Math.min(...[...resets].map(Number))).toBeLessThanOrEqual(1);
      });

      it("limits requests without a valid key per client address, 60 a minute", async () => {
        const address = randomAddress();
        const statuses: number[] = [];
        for (let i = 0; i < ANONYMOUS_LIMIT + 1; i++) {
          const res = await h.app.inject({
            method: "GET",
            url: "/v1/projects",
            headers: { authorization: `Bearer sl_live_${"x".repeat(32)}` },
            remoteAddress: address,
          });
          expectRateHeaders(res, "anonymous");
          statuses.push(res.statusCode);
        }
        expect(statuses.slice(0, ANONYMOUS_LIMIT).every((s) => s === 401)).toBe(true);
        expect(statuses[ANONYMOUS_LIMIT]).toBe(429);
        const elsewhere = await h.app.inject({ method: "GET", url: "/v1/projects", remoteAddress: randomAddress() });
        expect(elsewhere.statusCode).toBe(401);
        expect(elsewhere.headers["x-ratelimit-remaining"]).toBe(String(ANONYMOUS_LIMIT - 1));
      });

      it("counts a workspace's requests whatever their outcome, and separately from other workspaces", async () => {
        const t = await h.tenant("growth", ["read"]);
        const other = await h.tenant("growth", ["read"]);
        await h.call("createProject", { key: t.key, body: { name: "x", primary_domain: "x.com" } }); // 403
        await h.call("getProject", { key: t.key, params: { id: "prj_missing" } }); // 404
        await h.call("listProjects", { key: t.key, query: { limit: 0 } }); // 400
        const res = await h.call("listProjects", { key: t.key });
        expect(res.headers["x-ratelimit-remaining"]).toBe("296");
        const theirs = await h.call("listProjects", { key: other.key });
        expect(theirs.headers["x-ratelimit-remaining"]).toBe("299");
      });

      it("sends the three headers on every response of every route, errors included", async () => {
        for (const route of V1_ROUTES) {
          const fixture = ROUTE_FIXTURES[route.operationId];
          if (fixture === undefined) throw new Error(`no fixture for ${route.operationId}`);
          const owner = await h.tenant();
          const input = await fixture(h, owner);
          const free = await h.tenant("free");
          const wrongScope = await h.key(owner.workspace.id, [route.scope === "usage" ? "projects" : "usage"]);
          const stranger = await h.tenant("agency");
          const cases: [string, Record<string, string>, number][] = [
            ["no key", {}, 401],
            ["free plan", { authorization: free.authorization }, 403],
            ["wrong scope", { authorization: `Bearer ${wrongScope}` }, 403],
          ];
          for (const [label, headers, status] of cases) {
            const res = await h.call(route.operationId, { ...input, headers });
            expect(res.statusCode, `${route.operationId} ${label}`).toBe(status);
            expectRateHeaders(res, `${route.operationId} ${label}`);
          }
          const bad = await h.app.inject({
            method: route.method,
            url: `${routeUrl(route, input.params)}?stray=%00`,
            headers: { authorization: owner.authorization },
            remoteAddress: randomAddress(),
            ...(input.body === undefined ? {} : { payload: input.body as object }),
          });
          expect(bad.statusCode, `${route.operationId} bad input`).toBe(400);
          expectRateHeaders(bad, `${route.operationId} 400`);
          if (route.path.includes(":")) {
            const res = await h.call(route.operationId, { ...input, key: stranger.key });
            expect(res.statusCode).toBe(404);
            expectRateHeaders(res, `${route.operationId} 404`);
          }
        }
        const unknown = await h.app.inject({ method: "GET", url: "/v1/nothing-here", remoteAddress: randomAddress() });
        expect(unknown.statusCode).toBe(404);
        expectRateHeaders(unknown, "unknown route");
        const malformed = await h.app.inject({
          method: "GET",
          url: "/v1/projects/%E0%A4%A",
          remoteAddress: randomAddress(),
        });
        // Authentication comes first for every input, a malformed URL too (ADR 0003).
        expect(malformed.statusCode).toBe(401);
        expectRateHeaders(malformed, "malformed URL");
      });
    },
    { config: { redisUrl: store.redisUrl }, runtime: { rateLimitKeyPrefix: uniqueRedisPrefix() } },
  );

  describeEachDialect(
    `rate limit windows on ${store.name}`,
    (h) => {
      afterEach(() => expect(h.deps.rateLimits?.degraded ?? false).toBe(false));

      it("refuses with 429 and Retry-After once the window's allowance is spent, and lets through after it resets", async () => {
        const t = await h.tenant("growth", ["read"]);
        const statuses: number[] = [];
        let limited: LightMyRequestResponse | undefined;
        for (let i = 0; i < 6; i++) {
          const res = await h.call("listProjects", { key: t.key });
          statuses.push(res.statusCode);
          if (res.statusCode === 429) limited = res;
        }
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
        expect(limited?.json().error.code).toBe("RATE_LIMIT_EXCEEDED");
        expect(limited?.headers["retry-after"]).toBe("1");

        await new Promise((resolve) => setTimeout(resolve, 1_100)); // the test window is one second
        const after = await h.call("listProjects", { key: t.key });
        expect(after.statusCode).toBe(200);
        expect(after.headers["x-ratelimit-remaining"]).toBe("4");
      });

      it("answers 429 with the three headers and Retry-After on every route once over", async () => {
        for (const route of V1_ROUTES) {
          const fixture = ROUTE_FIXTURES[route.operationId];
          if (fixture === undefined) throw new Error(`no fixture for ${route.operationId}`);
          const setup = await h.tenant("agency"); // creates what the route needs, outside the limited workspace
          const input = await fixture(h, setup);
          const t = await h.tenant("growth");
          let last: LightMyRequestResponse | undefined;
          for (let i = 0; i < 6; i++) last = await h.call(route.operationId, { ...input, key: t.key });
          expect(last?.statusCode, route.operationId).toBe(429);
          expectRateHeaders(last ?? expect.fail("no response"), `${route.operationId} 429`);
          expect(last?.headers["retry-after"]).toMatch(/^\d+$/);
        }
      });
    },
    {
      config: { redisUrl: store.redisUrl, plans: tinyGrowth(5) },
      runtime: { rateLimitWindowSeconds: 1, rateLimitKeyPrefix: uniqueRedisPrefix() },
    },
  );
}

describeEachDialect("rate limits shared through Redis", (h) => {
  it("makes two API instances share one count exactly", async () => {
    const prefix = uniqueRedisPrefix();
    const silent = pino({ level: "silent" });
    // One after the other: two SQLite connections of one process must not migrate at once.
    const instances: { runtime: Runtime; app: FastifyInstance }[] = [];
    for (let i = 0; i < 2; i++) {
      const runtime = await createRuntime({ database: h.database.config, redisUrl: TEST_REDIS_URL }, silent, {
        rateLimitKeyPrefix: prefix,
      });
      const app = await buildHttpApp(runtime.deps, {
        publicUrl: "http://localhost",
        bodyLimitBytes: 1 << 20,
        logger: silent,
      });
      instances.push({ runtime, app });
    }
    try {
      const t = await h.tenant("growth", ["read"]);
      const responses = await Promise.all(
        Array.from({ length: 400 }, (_, i) =>
          (instances[i % 2]?.app ?? expect.fail("no instance")).inject({
            method: "GET",
            url: "/v1/projects",
            headers: { authorization: t.authorization },
          }),
        ),
      );
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(300);
      expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(100);
      const remaining = responses
        .filter((r) => r.statusCode === 200)
        .map((r) => Number(r.headers["x-ratelimit-remaining"]))
        .sort((a, b) => a - b);
      expect(remaining).toEqual(Array.from({ length: 300 }, (_, i) => i));
    } finally {
      for (const { app, runtime } of instances) {
        await app.close();
        await runtime.close();
      }
    }
  });
});

describe("rate limits when Redis is unreachable", () => {
  describeEachDialect("fallback", (harness) => {
    it("fall back to per-process counting, log the outage once, and keep answering", async () => {
      const lines: string[] = [];
      const logger = pino({ level: "warn" }, { write: (line: string) => lines.push(line) });
      const runtime = await createRuntime(
        { database: harness.database.config, redisUrl: "redis://127.0.0.1:1" },
        logger,
      );
      const app = await buildHttpApp(runtime.deps, { publicUrl: "http://localhost", bodyLimitBytes: 1 << 20, logger });
      try {
        const t = await harness.tenant("growth", ["read"]);
        const statuses: number[] = [];
        for (let i = 0; i < 20; i++) {
          const res = await app.inject({
            method: "GET",
            url: "/v1/projects",
            headers: { authorization: t.authorization },
          });
          statuses.push(res.statusCode);
          expect(res.headers["x-ratelimit-remaining"]).toBe(String(299 - i));
        }
        expect(statuses.every((s) => s === 200)).toBe(true);
        const outages = lines.filter((line) => line.includes("Redis unreachable"));
        expect(outages).toHaveLength(1);
        expect(runtime.deps.rateLimits?.degraded).toBe(true);
      } finally {
        await app.close();
        await runtime.close();
      }
    });
  });
});
