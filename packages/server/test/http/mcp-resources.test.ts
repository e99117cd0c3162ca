import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { GLOSSARY, METRIC_IDS } from "../../src/services/glossary/metrics.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";

const brand = {
  name: "Acme CRM",
  primary_domain: "acmecrm.com",
  competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }],
  prompts: ["best CRM for a small agency", "CRM with a good Slack integration"],
};

/** A message's text (or its attached resource's text), failing the test when there is none. */
function textIn(content: unknown): string {
  const block = content as { type?: string; text?: string; resource?: { text?: string } } | undefined;
  const text = block?.type === "resource" ? block.resource?.text : block?.text;
  if (typeof text !== "string") throw new Error(`no text in ${JSON.stringify(content)}`);
  return text;
}

/** The protocol error a request ended with (the SDK's client throws it). */
async function mcpError(request: Promise<unknown>): Promise<McpError> {
  try {
    await request;
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error("the request succeeded");
}

describeEachDialect("MCP resources and prompts", (h: Harness) => {
  let url: URL;
  let t: Tenant;
  let other: Tenant;
  let projectId: string;
  let reportId: string;
  const clients: Client[] = [];

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: "sightline-resources-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
    clients.push(client);
    return client;
  }

  const rest = async (operationId: string, id: string, key = t.key) =>
    (await h.call(operationId, { key, params: { id } })).json();

  beforeAll(async () => {
    await h.startWorker();
    const address = await h.app.listen({ host: "127.0.0.1", port: 0 });
    url = new URL("/mcp", address);
    t = await h.tenant("growth");
    other = await h.tenant("growth");
    projectId = (await h.call("createProject", { key: t.key, body: brand })).json().id;
    await h.call("createProject", { key: t.key, body: { name: "Acorn Bank", primary_domain: "acorn.example.com" } });
    await h.call("createProject", { key: t.key, body: { name: "Zeta Tools", primary_domain: "zeta.example.com" } });
    const analysis = await h.call("analyze", {
      key: t.key,
      body: { project_id: projectId, engines: ["sandbox"], samples: 1, wait: 30 },
    });
    expect(analysis.statusCode, analysis.body).toBe(200);
    reportId = (await h.call("listReports", { key: t.key, query: { project_id: projectId } })).json().data[0].id;
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  it("declares resources, prompts and completions", async () => {
    const client = await connect(t.key);
    expect(client.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {}, completions: {}, tools: {} });
  });

  it("lists the glossary, the workspace's brands and its newest reports, and the two templates", async () => {
    const client = await connect(t.key);
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris[0]).toBe("sightline://glossary");
    expect(uris).toContain(`sightline://brands/${projectId}`);
    expect(uris).toContain(`sightline://reports/${reportId}`);
    expect(
      resources
        .filter((r) => r.uri.startsWith("sightline://brands/"))
        .map((r) => r.name)
        .sort(),
    ).toEqual(["Acme CRM", "Acorn Bank", "Zeta Tools"]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual([
      "sightline://brands/{project_id}",
      "sightline://reports/{report_id}",
    ]);
  });

  it("reads the glossary as Markdown, and a brand and a report as their REST reads", async () => {
    const client = await connect(t.key);
    const glossary = await client.readResource({ uri: "sightline://glossary" });
    const page = glossary.contents[0];
    expect(page).toMatchObject({ uri: "sightline://glossary", mimeType: "text/markdown" });
    const text = String((page as { text: string }).text);
    for (const id of METRIC_IDS) {
      expect(text).toContain(`## ${GLOSSARY[id].name}`);
      expect(text).toContain(GLOSSARY[id].hint);
    }

    const read = await client.readResource({ uri: `sightline://brands/${projectId}` });
    expect(read.contents[0]?.mimeType).toBe("application/json");
    expect(JSON.parse(String((read.contents[0] as { text: string }).text))).toEqual(
      await rest("getProject", projectId),
    );
    const report = await client.readResource({ uri: `sightline://reports/${reportId}` });
    expect(JSON.parse(String((report.contents[0] as { text: string }).text))).toEqual(
      await rest("getReport", reportId),
    );
  });

  it("keeps another workspace's brands and reports out of reach, and names what an unknown address could be", async () => {
    const client = await connect(other.key);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["sightline://glossary"]);
    for (const uri of [`sightline://brands/${projectId}`, `sightline://reports/${reportId}`]) {
      const error = await mcpError(client.readResource({ uri }));
      expect(error.code, uri).toBe(-32002);
      expect(error.message).toContain("NOT_FOUND");
    }
    const unknown = await mcpError(client.readResource({ uri: "sightline://secrets/all" }));
    expect(unknown.code).toBe(-32002);
    expect(unknown.message).toContain("sightline://brands/{project_id}");
  });

  it("lists and reads only what the key's scopes allow", async () => {
    const narrow = await connect(await h.key(t.workspace.id, ["analyze"]));
    expect((await narrow.listResources()).resources.map((r) => r.uri)).toEqual(["sightline://glossary"]);
    const refused = await mcpError(narrow.readResource({ uri: `sightline://brands/${projectId}` }));
    expect(refused.code).toBe(-32600);
    expect(refused.message).toMatch(/INSUFFICIENT_SCOPE: The resource brand needs the 'projects' or 'read' scope/);
    const reports = await connect(await h.key(t.workspace.id, ["reports"]));
    const uris = (await reports.listResources()).resources.map((r) => r.uri);
    expect(uris).toContain(`sightline://reports/${reportId}`);
    expect(uris.some((uri) => uri.startsWith("sightline://brands/"))).toBe(false);
  });

  it("offers two prompts for a brand, found by its name or id, with the brand's settings attached", async () => {
    const client = await connect(t.key);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["weekly_visibility_summary", "what_to_fix_first"]);
    for (const prompt of prompts)
      expect(prompt.arguments).toEqual([expect.objectContaining({ name: "brand", required: true })]);

    const weekly = await client.getPrompt({ name: "weekly_visibility_summary", arguments: { brand: "acme crm" } });
    expect(weekly.description).toContain("Acme CRM");
    const [ask, attached] = weekly.messages;
    expect(ask?.content.type).toBe("text");
    const words = textIn(ask?.content);
    expect(words).toContain(`get_metrics with project_id "${projectId}"`);
    // The last 7 whole days before the harness's clock (2026-11-21T12:00Z).
    expect(words).toContain('from "2026-11-14T00:00:00.000Z", to "2026-11-21T00:00:00.000Z"');
    expect(attached?.content).toMatchObject({
      type: "resource",
      resource: { uri: `sightline://brands/${projectId}`, mimeType: "application/json" },
    });
    const settings = JSON.parse(textIn(attached?.content));
    expect(settings).toEqual(await rest("getProject", projectId));

    const fix = await client.getPrompt({ name: "what_to_fix_first", arguments: { brand: projectId } });
    expect(textIn(fix.messages[0]?.content)).toContain(`list_opportunities with project_id "${projectId}"`);
  });

  it("says which brands there are when the prompt's brand is not one, and completes brand names", async () => {
    const client = await connect(t.key);
    const missing = await mcpError(client.getPrompt({ name: "what_to_fix_first", arguments: { brand: "Globex" } }));
    expect(missing.code).toBe(-32602);
    expect(missing.message).toContain("No brand 'Globex' in this workspace; its brands are");
    expect(missing.message).toContain("Acme CRM");
    const elsewhere = await connect(other.key);
    const notTheirs = await mcpError(
      elsewhere.getPrompt({ name: "weekly_visibility_summary", arguments: { brand: projectId } }),
    );
    expect(notTheirs.message).toContain("it has no brands yet");
    const unknown = await mcpError(client.getPrompt({ name: "make_it_up", arguments: { brand: "Acme CRM" } }));
    expect(unknown.code).toBe(-32602);

    const completed = await client.complete({
      ref: { type: "ref/prompt", name: "weekly_visibility_summary" },
      argument: { name: "brand", value: "ac" },
    });
    expect(completed.completion.values.sort()).toEqual(["Acme CRM", "Acorn Bank"]);
  });
});
