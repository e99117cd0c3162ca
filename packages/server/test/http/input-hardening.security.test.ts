import { expect, it } from "vitest";
import type { Route } from "../../src/http/route.ts";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { ROUTE_FIXTURES } from "../helpers/fixtures.ts";
import { describeEachDialect, routeUrl } from "../helpers/harness.ts";

/** Query parameters of a route that hold numbers. */
function numericQueryParameters(route: Route): string[] {
  const properties = (route.query as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  return Object.entries(properties ?? {})
    .filter(([, schema]) => schema.type === "integer" || schema.type === "number")
    .map(([name]) => name);
}

const NUMERIC_ROUTES = V1_ROUTES.filter((route) => numericQueryParameters(route).length > 0);

/** Everything `Number()` would take that is not plain decimal digits, and numbers out of range. */
const NOT_DECIMAL = ["Infinity", "-Infinity", "+Infinity", "NaN", "1e2", "0x10", " 5", "5 ", "-0", "1.5", "+5", "0b11"];
const OUT_OF_RANGE = ["9223372036854775808", "0", "101", "99999999999999999999"];

it("finds the list routes whose query strings hold numbers", () => {
  const ids = NUMERIC_ROUTES.map((route) => route.operationId);
  for (const expected of [
    "listProjects",
    "listAnalyses",
    "listResults",
    "listMonitoring",
    "listMonitoringRuns",
    "listAlerts",
    "listReports",
    "listWebhooks",
    "listWebhookDeliveries",
  ]) {
    expect(ids).toContain(expected);
  }
});

describeEachDialect("numeric query parameters", (h) => {
  for (const route of NUMERIC_ROUTES) {
    for (const parameter of numericQueryParameters(route)) {
      it(`${route.operationId}: ${parameter} must be plain decimal digits in range, else 400`, async () => {
        const tenant = await h.tenant("agency");
        const fixture = await ROUTE_FIXTURES[route.operationId]?.(h, tenant);
        const base = { params: fixture?.params ?? {}, key: tenant.key };
        const good = await h.call(route.operationId, { ...base, query: { [parameter]: "5" } });
        expect(good.statusCode, good.body).toBe(200);
        for (const value of [...NOT_DECIMAL, ...OUT_OF_RANGE]) {
          const res = await h.call(route.operationId, { ...base, query: { [parameter]: value } });
          expect(res.statusCode, `${parameter}=${JSON.stringify(value)}: ${res.body}`).toBe(400);
          expect(res.json().error.code).toBe("VALIDATION_ERROR");
          expect(res.json().error.details[0].field).toBe(parameter);
        }
        // Repeated (`?limit=5&limit=6`) is not a number either.
        const repeated = await h.app.inject({
          method: "GET",
          url: `${routeUrl(route, base.params)}?${parameter}=5&${parameter}=6`,
          headers: { authorization: `Bearer ${tenant.key}` },
        });
        expect(repeated.statusCode, repeated.body).toBe(400);
      });
    }
  }

  it("authenticates before it looks at an over-long path parameter, and counts it against the workspace", async () => {
    const tenant = await h.tenant("growth");
    const long = "x".repeat(250);
    const withParams = V1_ROUTES.filter((route) => route.path.includes(":id"));
    expect(withParams.length).toBeGreaterThan(5);
    for (const [index, route] of withParams.entries()) {
      const url = routeUrl(route, { id: long, delivery_id: long });
      // An address each: more routes than one address may call anonymously in a window (60).
      const anonymous = await h.app.inject({ method: route.method, url, remoteAddress: `10.9.${index}.7` });
      expect(anonymous.statusCode, `${route.operationId} without a key: ${anonymous.body}`).toBe(401);
      expect(anonymous.json().error.code).toBe("INVALID_API_KEY");

      const keyed = await h.app.inject({
        method: route.method,
        url,
        headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
        ...(route.method === "GET" || route.method === "DELETE" ? {} : { payload: "{}" }),
      });
      expect(keyed.statusCode, `${route.operationId} with a key: ${keyed.body}`).toBe(400);
      expect(keyed.json().error.code).toBe("VALIDATION_ERROR");
      // The workspace's allowance (Growth: 300), not the per-address one (60), counted it.
      expect(keyed.headers["x-ratelimit-limit"]).toBe("300");
    }
  });

  it("authenticates before refusing a malformed URL", async () => {
    const tenant = await h.tenant("growth");
    const anonymous = await h.app.inject({ method: "GET", url: "/v1/projects/%E0%A4%A" });
    expect(anonymous.statusCode).toBe(401);
    const keyed = await h.app.inject({
      method: "GET",
      url: "/v1/projects/%E0%A4%A",
      headers: { authorization: `Bearer ${tenant.key}` },
    });
    expect(keyed.statusCode, keyed.body).toBe(400);
    expect(keyed.headers["x-ratelimit-limit"]).toBe("300");
  });
});
