import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "../../src/services/api-keys/api-keys.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { describeEachDialect, type Harness, randomAddress, type Tenant } from "../helpers/harness.ts";
import { REPO_ROOT } from "../helpers/processes.ts";

const TOOLS = [
  "list_brands",
  "get_brand",
  "get_metrics",
  "list_opportunities",
  "record_change",
  "list_changes",
  "get_change",
  "get_traffic",
  "get_access",
  "list_results",
  "get_result",
  "compare_audiences",
  "list_conversations",
  "get_conversation",
  "list_reports",
  "get_report",
  "run_analysis",
  "get_analysis",
];

const brand = {
  name: "Acme CRM",
  aliases: ["Acme"],
  primary_domain: "acmecrm.com",
  competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }],
  prompts: ["best CRM for a small agency", "CRM with a good Slack integration"],
};

interface ErrorBody {
  code: string;
  message: string;
  request_id: string;
  details: { field?: string; issue: string }[];
}

function textOf(result: CallToolResult): string {
  const [first] = result.content;
  if (first?.type !== "text") throw new Error(`expected text content, got ${JSON.stringify(result.content)}`);
  return first.text;
}

/** A successful tool result: its JSON text, which is also its structured content. */
function ok(result: CallToolResult) {
  const text = textOf(result);
  expect(result.isError ?? false, text).toBe(false);
  const body = JSON.parse(text);
  expect(result.structuredContent).toEqual(body);
  return body;
}

/** A refused tool call: the API's error object. */
function refused(result: CallToolResult): ErrorBody {
  const text = textOf(result);
  expect(result.isError, text).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const body = JSON.parse(text) as { error: ErrorBody };
  expect(body.error.request_id).toMatch(/^req_/);
  return body.error;
}

/** Calls a tool; the SDK's client checks a successful result against the tool's output schema. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

describeEachDialect("MCP server", (h: Harness) => {
  let url: URL;
  let t: Tenant;
  let other: Tenant;
  let projectId: string;
  let analysisId: string;
  const clients: Client[] = [];

  /** The SDK's own client over Streamable HTTP, with `key` as the Bearer token. */
  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: "sightline-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    await h.startWorker();
    const address = await h.app.listen({ host: "127.0.0.1", port: 0 });
    url = new URL("/mcp", address);
    t = await h.tenant("growth");
    other = await h.tenant("growth");
    projectId = (await h.call("createProject", { key: t.key, body: brand })).json().id;
    const analysis = await h.call("analyze", {
      key: t.key,
      body: { project_id: projectId, engines: ["sandbox"], samples: 1, wait: 30 },
    });
    expect(analysis.statusCode, analysis.body).toBe(200);
    analysisId = analysis.json().id;
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  it("lists every tool with its input schema (the route's own fields) and output schema", async () => {
    const client = await connect(t.key);
    expect(client.getServerVersion()).toMatchObject({ name: "sightline" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
      expect(tool.outputSchema).toMatchObject({ type: "object" });
      expect(tool.description).toMatch(/Scope: `\w+`/);
    }
    expect(byName.get("get_brand")?.inputSchema).toMatchObject({
      properties: { project_id: { type: "string", maxLength: 100 } },
      required: ["project_id"],
    });
    const metrics = byName.get("get_metrics")?.inputSchema;
    expect(Object.keys(metrics?.properties ?? {})).toEqual(
      expect.arrayContaining(["project_id", "from", "to", "engine", "prompt", "interval"]),
    );
    expect(metrics?.properties?.interval).toMatchObject({ enum: ["day", "week", "month"] });
    const results = byName.get("list_results")?.inputSchema;
    expect(Object.keys(results?.properties ?? {})).toEqual(
      expect.arrayContaining(["limit", "cursor", "project_id", "analysis_id", "engine", "from", "to"]),
    );
    const analyze = byName.get("run_analysis");
    expect(analyze?.inputSchema).toMatchObject({ required: ["project_id"] });
    expect(Object.keys(analyze?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["project_id", "engines", "prompts", "samples", "wait"]),
    );
    expect(analyze?.description).toContain("Scope: `analyze`.");
    expect(analyze?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get("list_brands")?.description).toContain("Scope: `projects` or `read`.");
    expect(byName.get("list_brands")?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("answers each tool with what its REST route answers", async () => {
    const client = await connect(t.key);
    const rest = async (operationId: string, options: Parameters<Harness["call"]>[1]) => {
      const response = await h.call(operationId, { key: t.key, ...options });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };

    const brands = ok(await call(client, "list_brands", { limit: 5 }));
    expect(brands.data.map((p: { id: string }) => p.id)).toEqual([projectId]);
    expect(brands).toEqual(await rest("listProjects", { query: { limit: 5 } }));

    const project = ok(await call(client, "get_brand", { project_id: projectId }));
    expect(project).toMatchObject({ id: projectId, name: "Acme CRM" });
    expect(project).toEqual(await rest("getProject", { params: { id: projectId } }));

    const metrics = ok(await call(client, "get_metrics", { project_id: projectId, interval: "week" }));
    expect(metrics.object).toBe("project_metrics");
    expect(metrics).toEqual(
      await rest("getProjectMetrics", { params: { id: projectId }, query: { interval: "week" } }),
    );

    const traffic = ok(await call(client, "get_traffic", { project_id: projectId, engine: "chatgpt" }));
    expect(traffic).toMatchObject({ object: "traffic", project_id: projectId, totals: { bot_hits: 0, referrals: 0 } });
    const opportunities = ok(await call(client, "list_opportunities", { project_id: projectId, limit: 5 }));
    expect(opportunities).toEqual(await rest("listOpportunities", { params: { id: projectId }, query: { limit: 5 } }));

    const results = ok(await call(client, "list_results", { project_id: projectId, engine: "sandbox", limit: 3 }));
    expect(results.data).toHaveLength(2);
    expect(results).toEqual(
      await rest("listResults", { query: { project_id: projectId, engine: "sandbox", limit: 3 } }),
    );

    const resultId = results.data[0].id;
    const result = ok(await call(client, "get_result", { result_id: resultId }));
    expect(result).toMatchObject({ id: resultId, object: "result", analysis_id: analysisId });
    expect(result).toEqual(await rest("getResult", { params: { id: resultId } }));

    const reports = ok(await call(client, "list_reports", { project_id: projectId }));
    expect(reports.data).toHaveLength(1);
    expect(reports).toEqual(await rest("listReports", { query: { project_id: projectId } }));

    const reportId = reports.data[0].id;
    const report = ok(await call(client, "get_report", { report_id: reportId }));
    expect(report.id).toBe(reportId);
    expect(report).toEqual(await rest("getReport", { params: { id: reportId } }));

    const analysis = ok(await call(client, "get_analysis", { analysis_id: analysisId }));
    expect(analysis).toEqual(await rest("getAnalysis", { params: { id: analysisId } }));
  });

  it("compares personas and countries, and reads conversations, as the REST routes do", async () => {
    // A tenant of its own: the other tests count the first tenant's answers, reports and credits.
    const mine = await h.tenant();
    const client = await connect(mine.key);
    const rest = async (operationId: string, options: Parameters<Harness["call"]>[1]) => {
      const response = await h.call(operationId, { key: mine.key, ...options });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json();
    };
    const own = (await rest("createProject", { body: { ...brand, countries: ["US", "DE"] } })).id as string;
    const script = await rest("createConversationScript", {
      params: { id: own },
      body: { name: "Follow-up", turns: ["best CRM for a small agency", "and cheaper?"] },
    });
    await rest("analyze", { body: { project_id: own, engines: ["sandbox"], wait: 30 } });
    const audiences = ok(await call(client, "compare_audiences", { project_id: own, by: "country" }));
    expect(audiences.groups.map((g: { label: string }) => g.label).sort()).toEqual(["Germany", "United States"]);
    expect(audiences).toEqual(await rest("getProjectBreakdown", { params: { id: own }, query: { by: "country" } }));
    const conversations = ok(await call(client, "list_conversations", { project_id: own, script_id: script.id }));
    expect(conversations.data).toHaveLength(1);
    expect(conversations).toEqual(
      await rest("listConversations", { params: { id: own }, query: { script_id: script.id } }),
    );
    const conversationId = conversations.data[0].id as string;
    const conversation = ok(
      await call(client, "get_conversation", { project_id: own, conversation_id: conversationId }),
    );
    expect(conversation.turns).toHaveLength(2);
    expect(conversation).toEqual(
      await rest("getConversation", { params: { id: own, conversation_id: conversationId } }),
    );
  });

  it("runs an analysis: queued at once, or finished with `wait`, spending one credit per answer", async () => {
    const client = await connect(t.key);
    const credits = await h.count("credit_entries", t.workspace.id);
    const queued = ok(await call(client, "run_analysis", { project_id: projectId, engines: ["sandbox"] }));
    expect(queued).toMatchObject({ object: "analysis", project_id: projectId, trigger: "api", engines: ["sandbox"] });
    expect(["queued", "running", "completed"]).toContain(queued.status);

    const finished = ok(
      await call(client, "run_analysis", {
        project_id: projectId,
        engines: ["sandbox"],
        prompts: ["which CRM do agencies use?"],
        samples: 2,
        wait: 30,
      }),
    );
    expect(finished).toMatchObject({ status: "completed", progress: { total: 2, succeeded: 2 } });
    expect(finished.summary.overall.answers).toBe(2);
    expect(await h.count("credit_entries", t.workspace.id)).toBeGreaterThan(credits);
    const usage = (await h.call("getUsage", { key: t.key })).json();
    expect(usage.credits.by_engine.sandbox).toBe(2 + 2 + 2);
  });

  it("refuses a key without the tool's scope with INSUFFICIENT_SCOPE; `read` opens the reads only", async () => {
    const analyst = await connect(await h.key(t.workspace.id, ["analyze"]));
    const scope = refused(await call(analyst, "list_brands"));
    expect(scope.code).toBe("INSUFFICIENT_SCOPE");
    expect(scope.message).toContain("list_brands needs the 'projects' or 'read' scope");

    const reader = await connect(await h.key(t.workspace.id, ["read"]));
    ok(await call(reader, "list_brands"));
    ok(await call(reader, "get_metrics", { project_id: projectId }));
    const before = await h.count("analyses", t.workspace.id);
    const write = refused(await call(reader, "run_analysis", { project_id: projectId, engines: ["sandbox"] }));
    expect(write.code).toBe("INSUFFICIENT_SCOPE");
    expect(write.message).toContain("needs the 'analyze' scope");
    expect(await h.count("analyses", t.workspace.id)).toBe(before);

    // The scope is checked before the arguments, as on the REST API.
    expect(refused(await call(reader, "run_analysis", { samples: "many" })).code).toBe("INSUFFICIENT_SCOPE");
  });

  it("refuses a missing, unknown or revoked key with 401 INVALID_API_KEY, and a plan without API access", async () => {
    await expect(connect("sl_live_00000000000000000000000000000000")).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining("INVALID_API_KEY"),
    });
    const free = await h.tenant("free");
    await expect(connect(free.key)).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining("PLAN_REQUIRED"),
    });

    const created = await createApiKey(h.deps, { workspaceId: t.workspace.id, name: "revoked", scopes: ["read"] });
    const client = await connect(created.key);
    ok(await call(client, "list_brands"));
    await revokeApiKey(h.deps, { keyId: created.id, workspaceId: t.workspace.id });
    await expect(call(client, "list_brands")).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining("was revoked"),
    });

    const anonymous = await h.app.inject({
      method: "POST",
      url: "/mcp",
      remoteAddress: randomAddress(),
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      payload: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe("INVALID_API_KEY");
    expect(anonymous.headers["x-ratelimit-remaining"]).toBeDefined();

    // The refusal says where a client learns to sign in (RFC 9728), and the metadata is there.
    expect(anonymous.headers["www-authenticate"]).toMatch(
      /^Bearer resource_metadata="http:\/\/localhost(:80)?\/\.well-known\/oauth-protected-resource\/mcp"$/,
    );
    const resource = await h.app.inject({ method: "GET", url: "/.well-known/oauth-protected-resource/mcp" });
    expect(resource.statusCode).toBe(200);
    expect(resource.json().resource).toMatch(/\/mcp$/);
    // What is not metadata of this server is a 404, never the dashboard's page.
    for (const url of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server/mcp"]) {
      const metadata = await h.app.inject({ method: "GET", url });
      expect(metadata.statusCode, url).toBe(404);
      expect(metadata.headers["content-type"], url).toMatch(/^application\/json/);
    }
  });

  it("refuses bad arguments with VALIDATION_ERROR naming each field, and changes nothing", async () => {
    const client = await connect(t.key);
    const analyses = await h.count("analyses", t.workspace.id);
    const credits = await h.count("credit_entries", t.workspace.id);

    const analysis = refused(
      await call(client, "run_analysis", { project_id: projectId, engines: [], samples: 0, colour: "red" }),
    );
    expect(analysis.code).toBe("VALIDATION_ERROR");
    expect(analysis.details.map((d) => d.field)).toEqual(expect.arrayContaining(["engines", "samples", "colour"]));
    expect(analysis.details).toContainEqual({ field: "colour", issue: "is not a known field" });

    const missing = refused(await call(client, "get_brand", {}));
    expect(missing).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "project_id", issue: "is required" }],
    });
    const typed = refused(await call(client, "get_metrics", { project_id: 42, interval: "year" }));
    expect(typed.details.map((d) => d.field)).toEqual(["project_id", "interval"]);
    const limit = refused(await call(client, "list_results", { limit: 1000 }));
    expect(limit.details).toEqual([{ field: "limit", issue: "must be <= 100" }]);
    // Text PostgreSQL cannot store is refused before the body is read, like in every request (the
    // tool's own check, for stdio, is in the stdio test).
    await expect(call(client, "run_analysis", { project_id: projectId, prompts: ["a\u0000b"] })).rejects.toMatchObject({
      code: 400,
      message: expect.stringContaining(
        "params.arguments.prompts[0]: must be valid Unicode text without NUL characters",
      ),
    });

    const engine = refused(await call(client, "run_analysis", { project_id: projectId, engines: ["claude"] }));
    expect(engine.code).toBe("ENGINE_NOT_ALLOWED");

    expect(await h.count("analyses", t.workspace.id)).toBe(analyses);
    expect(await h.count("credit_entries", t.workspace.id)).toBe(credits);

    await expect(client.callTool({ name: "delete_everything", arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("answers NOT_FOUND for another workspace's brand, result, report and analysis", async () => {
    const client = await connect(other.key);
    const resultId = (await h.call("listResults", { key: t.key, query: { project_id: projectId } })).json().data[0].id;
    const reportId = (await h.call("listReports", { key: t.key, query: { project_id: projectId } })).json().data[0].id;
    for (const [tool, args] of [
      ["get_brand", { project_id: projectId }],
      ["get_metrics", { project_id: projectId }],
      ["list_opportunities", { project_id: projectId }],
      ["list_changes", { project_id: projectId }],
      ["record_change", { project_id: projectId, title: "Elsewhere", prompts: brand.prompts }],
      ["get_change", { project_id: projectId, change_id: "chg_000000000000000000000000" }],
      ["get_traffic", { project_id: projectId }],
      ["get_access", { project_id: projectId }],
      ["compare_audiences", { project_id: projectId, by: "persona" }],
      ["list_conversations", { project_id: projectId }],
      ["get_conversation", { project_id: projectId, conversation_id: "cnv_000000000000000000000000" }],
      ["get_result", { result_id: resultId }],
      ["get_report", { report_id: reportId }],
      ["get_analysis", { analysis_id: analysisId }],
      ["run_analysis", { project_id: projectId, engines: ["sandbox"] }],
    ] as const) {
      expect(refused(await call(client, tool, args)).code, tool).toBe("NOT_FOUND");
    }
    expect(ok(await call(client, "list_brands")).data).toEqual([]);
    expect(await h.count("analyses", other.workspace.id)).toBe(0);
  });

  it("records a change and reads its effect as the REST routes do, with the result in words", async () => {
    // A tenant of its own: the other tests count the first tenant's brands.
    const mine = await h.tenant();
    const client = await connect(mine.key);
    const created = await h.call("createProject", {
      key: mine.key,
      body: {
        name: "Change brand",
        primary_domain: "change-brand.example.com",
        prompts: ["acme pricing?", "acme prices?", "best crm?", "top crm?"],
      },
    });
    const brandId = created.json().id;
    const recorded = await client.callTool({
      name: "record_change",
      arguments: {
        project_id: brandId,
        title: "New pricing page",
        pages: ["https://change-brand.example.com/pricing"],
      },
    });
    const change = ok(recorded as CallToolResult);
    expect(change).toMatchObject({
      object: "change",
      prompts: ["acme pricing?", "acme prices?"],
      status: "collecting",
    });
    // No effect given and two prompts a side: 10 points cannot show, so the plan is for what can (60 points).
    expect(change.plan).toMatchObject({ effect: 0.6, answers_per_prompt: expect.any(Number) });
    const words = (recorded as CallToolResult).content.map((block) => (block.type === "text" ? block.text : ""));
    expect(words[1]).toContain("New pricing page: Collecting");
    expect(words[1]).toContain("Plan: ");

    const read = ok(await call(client, "get_change", { project_id: brandId, change_id: change.id }));
    const rest = await h.call("getChange", { key: mine.key, params: { id: brandId, change_id: change.id } });
    expect(read).toEqual(rest.json());
    const list = ok(await call(client, "list_changes", { project_id: brandId }));
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([change.id]);

    const bad = refused(
      await call(client, "record_change", { project_id: brandId, title: "x", prompts: ["not ours?"] }),
    );
    expect(bad).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "prompts[0]" }] });
    expect(await h.count("changes", mine.workspace.id)).toBe(1);
  });

  it("speaks HTTP like the API: rate-limit headers and request id on /mcp, 405 for GET and DELETE", async () => {
    const headers = {
      authorization: `Bearer ${t.key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    };
    const listed = await h.app.inject({
      method: "POST",
      url: "/mcp",
      headers,
      payload: { jsonrpc: "2.0", id: 7, method: "tools/list" },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.headers["x-request-id"]).toMatch(/^req_/);
    expect(Number(listed.headers["x-ratelimit-limit"])).toBe(300);
    expect(listed.json().result.tools).toHaveLength(TOOLS.length);
    expect(listed.headers["mcp-session-id"]).toBeUndefined();
    // Each tool call of a batch beyond the first counts as one more request against the limit.
    const remaining = Number(listed.headers["x-ratelimit-remaining"]);
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "list_brands" } });
    const batch = await h.app.inject({ method: "POST", url: "/mcp", headers, payload: [call(1), call(2), call(3)] });
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json()).toHaveLength(3);
    expect(Number(batch.headers["x-ratelimit-remaining"])).toBe(remaining - 1);
    const after = await h.app.inject({ method: "POST", url: "/mcp", headers, payload: call(4) });
    expect(Number(after.headers["x-ratelimit-remaining"])).toBe(remaining - 4);
    for (const method of ["GET", "DELETE"] as const) {
      const refusedMethod = await h.app.inject({
        method,
        url: "/mcp",
        headers: { authorization: headers.authorization },
      });
      expect(refusedMethod.statusCode).toBe(405);
      expect(refusedMethod.headers.allow).toBe("POST");
    }
  });

  it("serves over stdio: `sightline mcp` with the key in SIGHTLINE_API_KEY", { timeout: 120_000 }, async () => {
    // One process (starting one costs seconds); the refusals before serving run in this one.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "packages/server/src/bin/sightline.ts", "mcp", "--no-worker"],
      cwd: REPO_ROOT,
      env: {
        ...(process.env as Record<string, string>),
        DATABASE_URL: h.database.url,
        SIGHTLINE_API_KEY: t.key,
        LOG_LEVEL: "info",
      },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "sightline-test", version: "1.0.0" });
    try {
      await client.connect(transport);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOLS);
      const brands = ok(await call(client, "list_brands"));
      expect(brands.data.map((p: { id: string }) => p.id)).toEqual([projectId]);
      const project = ok(await call(client, "get_brand", { project_id: projectId }));
      expect(project).toEqual((await h.call("getProject", { key: t.key, params: { id: projectId } })).json());
      expect(refused(await call(client, "get_brand", { project_id: "prj_nope" })).code).toBe("NOT_FOUND");
      const nul = refused(await call(client, "run_analysis", { project_id: projectId, prompts: ["a\u0000b"] }));
      expect(nul).toMatchObject({
        code: "VALIDATION_ERROR",
        details: [{ field: "prompts[0]", issue: "must be valid Unicode text without NUL characters" }],
      });
    } finally {
      await client.close();
    }
    expect(stderr).toContain("MCP server on stdio");
    expect(stderr).not.toContain(t.key);

    const env = { DATABASE_URL: h.database.url };
    const bad = await runCliInProcess(["mcp"], {
      ...env,
      SIGHTLINE_API_KEY: "sl_live_00000000000000000000000000000000",
    });
    expect(bad).toMatchObject({ code: 1, stdout: "" });
    expect(bad.stderr).toContain("not a valid Sightline key");
    const none = await runCliInProcess(["mcp"], env);
    expect(none).toMatchObject({ code: 2, stdout: "" });
    expect(none.stderr).toContain("SIGHTLINE_API_KEY");
    const help = await runCliInProcess(["mcp", "--help"], env);
    expect(help.stdout).toContain("sightline mcp [--no-worker]");
  });
});
