import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signUp } from "../helpers/dashboard.ts";
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
 * An access token the way an assistant gets one (ADR 0038), over HTTP: it registers, sends the
 * member to /oauth/authorize, the member consents on the dashboard's page, and it exchanges the
 * code with its PKCE verifier.
 */
async function tokenByTheFlow(base: string, cookie: string, workspaceId: string, scopes: string[]): Promise<string> {
  const registered = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "MCP Inspector",
      redirect_uris: ["http://127.0.0.1:6276/oauth/callback"],
      token_endpoint_auth_method: "none",
    }),
  });
  expect(registered.status).toBe(201);
  const client = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const params = {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: "http://127.0.0.1:6276/oauth/callback",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state: "inspector",
    resource: `${base}/mcp`,
  };
  const authorize = await fetch(`${base}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: "manual" });
  expect(new URL(authorize.headers.get("location") ?? "", base).pathname).toBe("/connect");
  const decided = await fetch(`${base}/app/api/oauth/authorization`, {
    method: "POST",
    headers: { cookie, origin: base, "content-type": "application/json" },
    body: JSON.stringify({ ...params, decision: "allow", workspace_id: workspaceId, scopes }),
  });
  expect(decided.status, await decided.clone().text()).toBe(200);
  const code = new URL(((await decided.json()) as { redirect_to: string }).redirect_to).searchParams.get("code");
  const token = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: code ?? "",
      redirect_uri: params.redirect_uri,
      code_verifier: verifier,
      client_id: client.client_id,
      resource: params.resource,
    }),
  });
  expect(token.status).toBe(200);
  return ((await token.json()) as { access_token: string }).access_token;
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

  it("lists and calls the tools with an access token from the OAuth flow", async () => {
    const base = new URL(url).origin;
    const owner = await signUp(h, { name: "Ines Inspector", workspace_name: "Signed in" });
    const key = await h.key(owner.workspaceId);
    const own = await h.call("createProject", {
      key,
      body: { name: "Signed Brand", primary_domain: "signed.example", prompts: ["best signed thing"] },
    });
    const token = await tokenByTheFlow(base, owner.cookie, owner.workspaceId, ["read"]);
    expect(token).toMatch(/^sl_oat_/);
    const withToken = [url, "--transport", "http", "--header", `Authorization: Bearer ${token}`];
    const listed = printed(await inspect([...withToken, "--method", "tools/list"]));
    expect((listed.tools as { name: string }[]).map((tool) => tool.name)).toContain("get_brand");
    const called = printed(
      await inspect([
        ...withToken,
        "--method",
        "tools/call",
        "--tool-name",
        "get_brand",
        "--tool-arg",
        `project_id=${own.json().id}`,
      ]),
    );
    expect(called.isError ?? false).toBe(false);
    expect(called.structuredContent).toMatchObject({ id: own.json().id, name: "Signed Brand" });
    // The token is for its workspace only: the tenant's brand is not there.
    const foreign = await inspect([
      ...withToken,
      "--method",
      "tools/call",
      "--tool-name",
      "get_brand",
      "--tool-arg",
      `project_id=${projectId}`,
    ]);
    expect(foreign.code).not.toBe(0);
    expect(`${foreign.stdout}${foreign.stderr}`).toContain("NOT_FOUND");
  });

  it("is refused without a key or token", async () => {
    const run = await inspect([url, "--transport", "http", "--method", "tools/list"]);
    expect(run.code).not.toBe(0);
    expect(run.stdout).not.toContain("list_brands");
    expect(`${run.stdout}${run.stderr}`).toContain('"code":"auth_required"');
  });
});
