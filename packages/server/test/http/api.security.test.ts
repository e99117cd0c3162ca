import { expect, it } from "vitest";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { revokeApiKey } from "../../src/services/api-keys/api-keys.ts";
import { KEY_LIFETIME_MS } from "../../src/services/api-keys/format.ts";
import { SCOPES, scopeAllows } from "../../src/services/api-keys/scopes.ts";
import { ROUTE_FIXTURES } from "../helpers/fixtures.ts";
import { type CountedTable, describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";

/** Everything a refused request must not have changed: a row count per table a request can write. */
const WRITTEN: CountedTable[] = [
  "projects",
  "events",
  "analyses",
  "credit_entries",
  "monitoring_schedules",
  "monitoring_runs",
  "webhook_endpoints",
  "webhook_deliveries",
  "api_keys",
];

async function snapshot(h: Harness, tenant: Tenant) {
  const counts: Record<string, number> = {};
  for (const table of WRITTEN) counts[table] = await h.count(table, tenant.workspace.id);
  return counts;
}

it("every v1 route has a security fixture", () => {
  const missing = V1_ROUTES.map((r) => r.operationId).filter((id) => !(id in ROUTE_FIXTURES));
  expect(missing).toEqual([]);
});

describeEachDialect(
  "security suite",
  (h) => {
    for (const route of V1_ROUTES) {
      const found = ROUTE_FIXTURES[route.operationId];
      if (found === undefined) continue; // reported by the coverage test above
      const fixture = found;
      const name = `${route.method} /v1${route.path}`;

      async function expectRefused(
        tenant: Tenant,
        headers: Record<string, string>,
        status: number,
        code: string,
      ): Promise<void> {
        const input = await fixture(h, tenant);
        const before = await snapshot(h, tenant);
        const res = await h.call(route.operationId, { ...input, headers });
        expect(res.statusCode, res.body).toBe(status);
        expect(res.json().error.code).toBe(code);
        expect(await snapshot(h, tenant)).toEqual(before);
      }

      it(`${name}: no Authorization header is 401 INVALID_API_KEY`, async () => {
        await expectRefused(await h.tenant(), {}, 401, "INVALID_API_KEY");
      });

      it(`${name}: a scheme other than Bearer is 401 INVALID_API_KEY`, async () => {
        const t = await h.tenant();
        for (const header of [
          `Basic ${Buffer.from(`${t.key}:`).toString("base64")}`,
          `Token ${t.key}`,
          "Bearer",
          `Bearer${t.key}`,
          t.key,
        ]) {
          await expectRefused(t, { authorization: header }, 401, "INVALID_API_KEY");
        }
      });

      it(`${name}: an unknown or malformed key is 401 INVALID_API_KEY`, async () => {
        const t = await h.tenant();
        const unknown = `sl_live_${"a".repeat(32)}`;
        for (const key of [unknown, "sl_live_short", `${t.key}x`, "sk_live_whatever"]) {
          await expectRefused(t, { authorization: `Bearer ${key}` }, 401, "INVALID_API_KEY");
        }
      });

      it(`${name}: a revoked key is 401 INVALID_API_KEY at once`, async () => {
        const t = await h.tenant();
        const keyId = (
          await h.deps.db
            .selectFrom("api_keys")
            .select("id")
            .where("workspace_id", "=", t.workspace.id)
            .executeTakeFirstOrThrow()
        ).id;
        // Warm the cache first: revocation must win over it.
        const warm = await h.call(route.operationId, { ...(await fixture(h, t)), key: t.key });
        expect(warm.statusCode).toBeLessThan(300);
        await revokeApiKey(h.deps, { keyId });
        await expectRefused(t, { authorization: t.authorization }, 401, "INVALID_API_KEY");
      });

      it(`${name}: an expired key is 401 INVALID_API_KEY (clock moved past one year)`, async () => {
        const t = await h.tenant();
        const input = await fixture(h, t);
        const start = h.clock.now();
        try {
          h.clock.set(start.getTime() + KEY_LIFETIME_MS - 1);
          const lastMoment = await h.call(route.operationId, { ...input, key: t.key });
          expect(lastMoment.statusCode).toBeLessThan(300);
          h.clock.set(start.getTime() + KEY_LIFETIME_MS);
          const res = await h.call(route.operationId, { ...(await fixture(h, t)), key: t.key });
          expect(res.statusCode).toBe(401);
          expect(res.json().error).toMatchObject({ code: "INVALID_API_KEY" });
          expect(res.json().error.message).toContain("expired");
        } finally {
          h.clock.set(start);
        }
      });

      it(`${name}: keys of free and starter workspaces are 403 PLAN_REQUIRED, whatever their scopes`, async () => {
        for (const plan of ["free", "starter"] as const) {
          const t = await h.tenant(plan);
          await expectRefused(t, { authorization: t.authorization }, 403, "PLAN_REQUIRED");
        }
      });

      it(`${name}: each scope that does not govern it is 403 INSUFFICIENT_SCOPE`, async () => {
        const owner = await h.tenant();
        for (const scope of SCOPES) {
          if (scopeAllows([scope], route.scope, route.method)) continue;
          const key = await h.key(owner.workspace.id, [scope]);
          await expectRefused(owner, { authorization: `Bearer ${key}` }, 403, "INSUFFICIENT_SCOPE");
        }
        const allButAccepted = SCOPES.filter((s) => !scopeAllows([s], route.scope, route.method));
        const key = await h.key(owner.workspace.id, allButAccepted);
        await expectRefused(owner, { authorization: `Bearer ${key}` }, 403, "INSUFFICIENT_SCOPE");
      });

      it(`${name}: its own scope alone is enough`, async () => {
        const owner = await h.tenant();
        const key = await h.key(owner.workspace.id, [route.scope]);
        const res = await h.call(route.operationId, { ...(await fixture(h, owner)), key });
        expect(res.statusCode, res.body).toBe(route.success.status);
      });

      if (route.method === "GET") {
        it(`${name}: the read scope is enough`, async () => {
          const owner = await h.tenant();
          const key = await h.key(owner.workspace.id, ["read"]);
          const res = await h.call(route.operationId, { ...(await fixture(h, owner)), key });
          expect(res.statusCode, res.body).toBe(200);
        });
      } else {
        it(`${name}: the read scope is 403 INSUFFICIENT_SCOPE on a write`, async () => {
          const owner = await h.tenant();
          const key = await h.key(owner.workspace.id, ["read"]);
          await expectRefused(owner, { authorization: `Bearer ${key}` }, 403, "INSUFFICIENT_SCOPE");
        });
      }

      if (route.path.includes(":")) {
        it(`${name}: another workspace's id is 404 NOT_FOUND and changes nothing there`, async () => {
          const owner = await h.tenant();
          const stranger = await h.tenant("agency");
          const input = await fixture(h, owner);
          const before = await snapshot(h, owner);
          const res = await h.call(route.operationId, { ...input, key: stranger.key });
          expect(res.statusCode, res.body).toBe(404);
          expect(res.json().error.code).toBe("NOT_FOUND");
          expect(res.body).not.toContain(owner.workspace.id);
          expect(await snapshot(h, owner)).toEqual(before);
          // The stranger's workspace holds its own key and nothing else.
          const untouched = Object.fromEntries(WRITTEN.map((table) => [table, table === "api_keys" ? 1 : 0]));
          expect(await snapshot(h, stranger)).toEqual(untouched);
        });
      }
    }

    it("checks the plan before the scope, and the scope before the body", async () => {
      const free = await h.tenant("free", ["read"]);
      const planFirst = await h.call("createProject", { key: free.key, body: { nonsense: true } });
      expect(planFirst.json().error.code).toBe("PLAN_REQUIRED");

      const growth = await h.tenant("growth", ["read"]);
      const scopeFirst = await h.app.inject({
        method: "POST",
        url: "/v1/projects",
        headers: { authorization: growth.authorization, "content-type": "application/json" },
        payload: "{not json",
      });
      expect(scopeFirst.statusCode).toBe(403);
      expect(scopeFirst.json().error.code).toBe("INSUFFICIENT_SCOPE");

      const noKey = await h.app.inject({
        method: "POST",
        url: "/v1/projects",
        headers: { "content-type": "application/json" },
        payload: "{not json",
      });
      expect(noKey.json().error.code).toBe("INVALID_API_KEY");
    });

    it("accepts the Bearer scheme in any letter case", async () => {
      const t = await h.tenant();
      const res = await h.call("listProjects", { headers: { authorization: `bearer ${t.key}` } });
      expect(res.statusCode).toBe(200);
    });

    it("lists only the caller's projects", async () => {
      const a = await h.tenant();
      const b = await h.tenant();
      await h.call("createProject", { key: a.key, body: { name: "A brand", primary_domain: "a.example.com" } });
      const res = await h.call("listProjects", { key: b.key });
      expect(res.json().data).toEqual([]);
    });
  },
  // suggestBrand's fixture reads a website on 127.0.0.1 (outbound address rules: test/projects/website-fetcher.security.test.ts).
  { config: { webhookAllowPrivate: true } },
);
