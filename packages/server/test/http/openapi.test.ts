import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../../src/errors/codes.ts";
import { buildOpenApiDocument } from "../../src/http/openapi/build.ts";
import { COMMON_ERRORS } from "../../src/http/route.ts";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { escapeHtml } from "../../src/lib/html.ts";
import { useHarness } from "../helpers/harness.ts";
import { REPO_ROOT } from "../helpers/processes.ts";

const run = promisify(execFile);
const doc = buildOpenApiDocument(V1_ROUTES, "http://localhost:8080") as {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown> };
};

function operations() {
  return V1_ROUTES.map((route) => {
    const op = doc.paths[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method.toLowerCase()];
    return { route, op };
  });
}

describe("OpenAPI document", () => {
  it("lints with Redocly's strict recommended rules: zero errors, zero warnings", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sightline-openapi-"));
    try {
      const file = join(dir, "openapi.json");
      writeFileSync(file, JSON.stringify(doc, null, 2));
      const result = await run(
        join(REPO_ROOT, "node_modules/.bin/redocly"),
        ["lint", file, "--config", join(REPO_ROOT, "redocly.yaml"), "--format", "json"],
        { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
      ).catch((error: { stdout: string; stderr: string }) => error);
      const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
      expect(report.problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("describes every route: operation id, scope, schemas and error responses", () => {
    for (const { route, op } of operations()) {
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op?.operationId).toBe(route.operationId);
      expect(op?.["x-required-scope"]).toBe(route.scope);
      expect(op?.security).toEqual([{ bearerAuth: [] }]);
      const responses = op?.responses as Record<string, unknown>;
      expect(Object.keys(responses)).toContain(String(route.success.status));
      for (const code of [...COMMON_ERRORS, ...(route.errors ?? [])]) {
        expect(Object.keys(responses), `${route.operationId} documents ${code}`).toContain(String(ERROR_STATUS[code]));
      }
      if (route.body !== undefined) expect(JSON.stringify(op?.requestBody)).toContain("#/components/schemas/");
    }
    const operationIds = operations().map(({ op }) => op?.operationId);
    expect(new Set(operationIds).size).toBe(V1_ROUTES.length);
    for (const name of ["Project", "ProjectCreate", "ProjectUpdate", "ProjectList", "ErrorResponse", "Competitor"]) {
      expect(doc.components.schemas).toHaveProperty(name);
    }
  });
});

describe("served documentation", () => {
  const h = useHarness("sqlite");

  it("serves the same document at /v1/openapi.json without a key", async () => {
    const res = await h.app.inject({ method: "GET", url: "/v1/openapi.json" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(V1_ROUTES, "http://localhost:8080"))));
  });

  it("renders a reference at /docs covering every operation", async () => {
    const res = await h.app.inject({ method: "GET", url: "/docs" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    for (const route of V1_ROUTES) {
      expect(res.body).toContain(`id="${route.operationId}"`);
      expect(res.body).toContain(escapeHtml(route.summary));
    }
    expect(res.body).toContain("primary_domain");
    expect(res.body).not.toContain("<script");
  });
});
