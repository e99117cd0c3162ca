import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { REPO_ROOT } from "../helpers/processes.ts";

const INSPECTOR = join(REPO_ROOT, "node_modules", ".bin", "mcp-inspector");

/** A home of its own for the Inspector, which keeps a catalog and state under ~/.mcp-inspector. */
const HOME = mkdtempSync(join(tmpdir(), "sightline-inspector-"));
afterAll(() => rmSync(HOME, { recursive: true, force: true }));

/** Runs the MCP Inspector's command line (`mcp-inspector --cli`) and returns what it printed. */
function inspect(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(INSPECTOR, ["--cli", ...args], {
      env: { ...process.env, HOME, MCP_CATALOG_PATH: join(HOME, "mcp.json") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The JSON the Inspector printed for one method. */
function printed(run: { code: number | null; stdout: string; stderr: string }): Record<string, unknown> {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/**
 * The official MCP Inspector's command line, an MCP client Sightline's code does not share, lists
 * and calls the tools, lists and reads the resources and gets a prompt over Streamable HTTP with an
 * API key; and is refused without one.
 */
describeEachDialect("the MCP Inspector's command line", (h: Harness) => {
  let url: string;
  let t: Tenant;
  let projectId: string;
  const server = () => [url, "--transport", "http", "--header", `Authorization: ${t.authorization}`];

  beforeAll(async () => {
    const address = await h.app.listen({ host: "127.0.0.1", port: 0 });
    url = new URL("/mcp", address).toString();
    t = await h.tenant("growth");
    const project = await h.call("createProject", {
      key: t.key,
      body: { name: "Acme CRM", primary_domain: "acmecrm.com", prompts: ["best CRM for a small agency"] },
    });
    projectId = project.json().id;
  });

  it("lists and calls the tools", async () => {
    const listed = printed(await inspect([...server(), "--method", "tools/list"]));
    const names = (listed.tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["list_brands", "get_metrics", "run_analysis", "get_report"]));
    expect(names).toHaveLength(18);

    const called = printed(
      await inspect([
        ...server(),
        "--method",
        "tools/call",
        "--tool-name",
        "get_brand",
        "--tool-arg",
        `project_id=${projectId}`,
      ]),
    );
    expect(called.isError ?? false).toBe(false);
    expect(called.structuredContent).toMatchObject({ id: projectId, name: "Acme CRM", primary_domain: "acmecrm.com" });
  });

  it("lists and reads the resources, and gets a prompt for a brand by its name", async () => {
    const resources = printed(await inspect([...server(), "--method", "resources/list"]));
    expect((resources.resources as { uri: string }[]).map((r) => r.uri)).toEqual([
      "sightline://glossary",
      `sightline://brands/${projectId}`,
    ]);
    const brand = printed(
      await inspect([...server(), "--method", "resources/read", "--uri", `sightline://brands/${projectId}`]),
    );
    const [content] = brand.contents as { text: string }[];
    expect(JSON.parse(content?.text ?? "{}")).toMatchObject({ id: projectId, name: "Acme CRM" });

    const prompt = printed(
      await inspect([
        ...server(),
        "--method",
        "prompts/get",
        "--prompt-name",
        "what_to_fix_first",
        "--prompt-args",
        "brand=Acme CRM",
      ]),
    );
    const [ask] = prompt.messages as { content: { text: string } }[];
    expect(ask?.content.text).toContain(`list_opportunities with project_id "${projectId}"`);
  });

  it("is refused without a key (the Inspector then asks for an OAuth sign-in, which Sightline does not offer yet)", async () => {
    const run = await inspect([url, "--transport", "http", "--method", "tools/list"]);
    expect(run.code).not.toBe(0);
    expect(run.stdout).not.toContain("list_brands");
    expect(`${run.stdout}${run.stderr}`).toContain('"code":"auth_required"');
  });
});
