import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import type { Io } from "../../src/cli/io.ts";
import { main } from "../../src/cli/main.ts";
import { buildOpenApiDocument } from "../../src/http/openapi/build.ts";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { ENGINES } from "../../src/services/engines/catalog.ts";
import { reserveCredits } from "../../src/services/usage/credits.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect } from "../helpers/harness.ts";
import { REPO_ROOT } from "../helpers/processes.ts";

type Schema = Record<string, unknown>;
const doc = buildOpenApiDocument(V1_ROUTES, "http://localhost:8080", [...ENGINES, "llama3"]) as {
  components: { schemas: Record<string, Schema> };
};
const schemas = doc.components.schemas;

/** Follows a `$ref` into the document's components. */
function resolveRef(schema: Schema | undefined): Schema {
  const ref = schema?.$ref;
  if (typeof ref !== "string") return schema ?? {};
  return schemas[ref.replace("#/components/schemas/", "")] ?? {};
}

function property(component: string, name: string): Schema {
  const properties = schemas[component]?.properties as Record<string, Schema> | undefined;
  return resolveRef(properties?.[name]);
}

/** A client generated from the document: validates values the way its schema says. */
const client = new Ajv({ strict: false, unicodeRegExp: false });

describe("the OpenAPI document guides a generated client to valid data", () => {
  it("gives every domain field the pattern the server enforces", () => {
    const fields = [
      property("ProjectCreate", "primary_domain"),
      resolveRef((property("ProjectCreate", "other_domains").items as Schema) ?? {}),
      resolveRef((property("CompetitorInput", "domains").items as Schema) ?? {}),
    ];
    for (const field of fields) expect(field.pattern).toEqual(expect.any(String));
    const check = client.compile(fields[0] as Schema);
    for (const good of ["acme.com", "www.acme.com", "https://www.Acme.com/pricing", "bücher.de"]) {
      expect(check(good), good).toBe(true);
    }
    for (const bad of ["not a domain", "localhost", "acme.com/blog", "ftp://acme.com", "user@acme.com"]) {
      expect(check(bad), bad).toBe(false);
    }
  });

  it("lists this server's engines, custom ones included, as the enum of every engines item", () => {
    expect(schemas.EngineName?.enum).toEqual([...ENGINES, "llama3"]);
    const engineItems = [
      property("AnalyzeRequest", "engines").items,
      property("ProjectCreate", "engines").items,
      property("AlertRuleInput", "engines").items,
    ];
    for (const items of engineItems) expect(items).toEqual({ $ref: "#/components/schemas/EngineName" });
  });
});

describeEachDialect("the server agrees with its document", (h) => {
  it("refuses a domain outside the pattern with the same words as the other domain checks", async () => {
    const t = await h.tenant();
    const res = await h.call("createProject", {
      key: t.key,
      body: { name: "Acme", primary_domain: "acme.com/blog", competitors: [{ name: "Globex", domains: ["nope"] }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      { field: "primary_domain", issue: "must be a domain name such as example.com" },
      { field: "competitors[0].domains[0]", issue: "must be a domain name such as example.com" },
    ]);
  });

  it("says a threshold out of range must be between its bounds, and only a missing one is required", async () => {
    const t = await h.tenant();
    const project = (
      await h.call("createProject", { key: t.key, body: { name: "Acme", primary_domain: "acme.com" } })
    ).json();
    const create = (rule: Record<string, unknown>) =>
      h.call("createMonitoring", {
        key: t.key,
        body: { project_id: project.id, schedule: { every: "day" }, alert_rules: [rule] },
      });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ type: "visibility_below", threshold: 5 }, "alert_rules[0].threshold", "must be between 0 and 1"],
      [{ type: "visibility_below" }, "alert_rules[0].threshold", "is required: a visibility between 0 and 1"],
      [{ type: "sentiment_below", threshold: 101 }, "alert_rules[0].threshold", "must be <= 100"],
      [{ type: "visibility_drop", points: 0 }, "alert_rules[0].points", "must be > 0"],
    ];
    for (const [rule, field, issue] of cases) {
      const res = await create(rule);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details).toContainEqual({ field, issue });
    }
    expect(await h.count("monitoring_schedules", t.workspace.id)).toBe(0);
  });

  it('says "1 credit", not "1 credits", when the allowance is short', async () => {
    const t = await h.tenant("growth");
    const project = (
      await h.call("createProject", {
        key: t.key,
        body: { name: "Acme", primary_domain: "acme.com", prompts: ["one prompt"] },
      })
    ).json();
    // Spend the whole allowance (Growth: 10,000) as earlier work would have.
    const ctx = await workspaceContext(h.deps, t.workspace.id);
    await reserveCredits(ctx, { charges: [{ engine: "sandbox", credits: 10_000 }], reference: "earlier work" });
    const res = await h.call("analyze", { key: t.key, body: { project_id: project.id, engines: ["sandbox"] } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toMatch(/^This needs 1 credit, but 0 of the 10,000 credits/);
  });
});

function testIo(): Io & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    errors,
    out: (line) => lines.push(line),
    err: (line) => errors.push(line),
    env: {},
    cwd: REPO_ROOT,
  };
}

describe("the operator CLI's help", () => {
  it("prints each command's and subcommand's usage for --help and -h, and exits 0", async () => {
    const cases: [string[], string][] = [
      [["key", "create", "--help"], "sightline key create --workspace ID --name NAME --scopes"],
      [["key", "--help"], "sightline key revoke --key ID"],
      [["workspace", "set-plan", "-h"], "sightline workspace set-plan --workspace ID --plan PLAN"],
      [["usage", "show", "--help"], "sightline usage show --workspace ID"],
      [["analyze", "--help"], "sightline analyze --project ID"],
      [["serve", "--help"], "Runs the HTTP API only"],
      [["migrate", "--help"], "Applies pending database migrations"],
      [["help", "key"], "sightline key list --workspace ID"],
    ];
    for (const [argv, expected] of cases) {
      const io = testIo();
      expect(await main(argv, io), argv.join(" ")).toBe(0);
      expect(io.lines.join("\n"), argv.join(" ")).toContain(expected);
      expect(io.errors).toEqual([]);
    }
    const io = testIo();
    await main(["key", "create", "--help"], io);
    expect(io.lines.join("\n")).not.toContain("key revoke");
  });
});

describe("the repository", () => {
  it("carries the license package.json names", () => {
    const license = readFileSync(resolve(REPO_ROOT, "LICENSE"), "utf8");
    expect(JSON.parse(readFileSync(resolve(REPO_ROOT, "package.json"), "utf8")).license).toBe("Apache-2.0");
    expect(license).toContain("Apache License");
    expect(license).toContain("Version 2.0, January 2004");
  });

  it("stops the server when npm start is sent SIGTERM, leaving no node process behind", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "sightline-npm-start-"));
    const npm = spawn("npm", ["start"], {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: "0", SIGHTLINE_DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        let output = "";
        const timer = setTimeout(() => reject(new Error(`npm start did not start:\n${output}`)), 30_000);
        npm.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Sightline listening on (http:\/\/[^"\s]+)/.exec(output);
          if (match?.[1] !== undefined) {
            clearTimeout(timer);
            resolveUrl(match[1]);
          }
        });
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const exited = new Promise((done) => npm.once("exit", done));
      npm.kill("SIGTERM");
      await exited;
      // The server went with it: its port refuses connections.
      let refused = false;
      for (let i = 0; i < 50 && !refused; i++) {
        refused = await fetch(`${url}/healthz`).then(
          () => false,
          () => true,
        );
        if (!refused) await new Promise((resolveWait) => setTimeout(resolveWait, 100));
      }
      expect(refused).toBe(true);
    } finally {
      npm.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
