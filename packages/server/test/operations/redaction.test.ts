import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/app/runtime.ts";
import { Redactor } from "../../src/lib/redact.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { createWorkspace } from "../../src/services/workspaces/workspaces.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { type FakeVendor, startFakeVendor } from "../helpers/fake-vendors/server.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";
import { type ServerProcess, startServerProcess } from "../helpers/processes.ts";
import { Receiver } from "../helpers/receiver.ts";

/** Every row of every table, as one text: what an attacker with a database dump would read. */
async function dumpDatabase(db: TestDatabase): Promise<string> {
  if (db.config.dialect === "sqlite") {
    const sqlite = new BetterSqlite3(db.config.path, { readonly: true });
    try {
      const tables = sqlite.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[];
      return tables.map((t) => JSON.stringify(sqlite.prepare(`select * from "${t.name}"`).all())).join("\n");
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const tables = await client.query<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public'",
    );
    const parts: string[] = [];
    for (const { tablename } of tables.rows) {
      parts.push(JSON.stringify((await client.query(`select * from "${tablename}"`)).rows));
    }
    return parts.join("\n");
  } finally {
    await client.end();
  }
}

/**
 * An OpenAI-compatible server (Ollama, vLLM, a proxy) that refuses the key and, carelessly, says
 * it back: `401 {"error": {"message": "Incorrect API key provided: <the key>", …}}`, as OpenAI's own
 * wire format does with a masked key.
 */
function startKeyEchoingServer(): Promise<FakeVendor> {
  const echo = (authorization: string | string[] | undefined) => {
    const key = String(authorization ?? "").replace(/^Bearer /, "");
    return {
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      },
    };
  };
  return startFakeVendor({
    basePath: "/v1",
    serves: (request) => request.method === "POST" && request.path === "/v1/chat/completions",
    notFound: () => ({ status: 404, body: { error: { message: "not found" } } }),
    rateLimitHeaders: () => ({}),
    errorBody: () => ({ error: { message: "error" } }),
    reply: ({ request }) => echo(request.headers.authorization),
  });
}

describe("the redactor", () => {
  it("censors configured secrets and credential shapes, and leaves ordinary text alone", () => {
    const redactor = new Redactor(["local-engine-password-42", "short"]);
    const scrubbed = redactor.scrub(
      "keys: local-engine-password-42, sk-proj-Abc123Def456Ghi, sk-abc****xyz9, sl_live_abcdefghijkl, whsec_AbCd1234, " +
        "code=sl_oac_codecodecode refresh sl_ort_refreshrefresh, sl_oat_accessaccess, sl_ocs_secretsecret, " +
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.x, https://serpapi.com/search?q=x&api_key=abcdef123456, " +
        '{"api_key":"zzzzzzzz"} AIzaSyA1234567890abcdefghijklmnopq',
    );
    for (const secret of [
      "local-engine-password-42",
      "sk-proj-Abc123Def456Ghi",
      "sk-abc****xyz9",
      "sl_live_abcdefghijkl",
      "sl_oac_codecodecode",
      "sl_ort_refreshrefresh",
      "sl_oat_accessaccess",
      "sl_ocs_secretsecret",
      "whsec_AbCd1234",
      "eyJhbGciOiJIUzI1NiJ9",
      "abcdef123456",
      "zzzzzzzz",
      "AIzaSyA1234567890abcdefghijklmnopq",
    ]) {
      expect(scrubbed).not.toContain(secret);
    }
    expect(scrubbed).toContain("[redacted]");
    const ordinary = "Notion is the best note-taking tool; a short token limit, sk-8 ski, Bearer bonds.";
    expect(redactor.scrub(ordinary)).toBe(ordinary);
  });
});

describe.each(DIALECTS)("secrets from outside are never stored, served or logged [%s]", (dialect) => {
  // One secret of a known shape (`sk-…`) and one of no recognisable shape: only the configuration
  // can tell that the second is a secret.
  const SHAPED_KEY = `sk-test-${"Q7v".repeat(8)}`;
  const SHAPELESS_KEY = `local-engine-password-${Date.now()}`;
  let db: TestDatabase;
  let vendor: FakeVendor;
  let receiver: Receiver;
  let server: ServerProcess;
  let apiKey: string;

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    vendor = await startKeyEchoingServer();
    receiver = await new Receiver().start();
    const runtime = await createRuntime(
      { database: db.config, secretKeys: [TEST_SECRET_KEY] },
      pino({ level: "silent" }),
    );
    const workspace = await createWorkspace(runtime.deps, { name: "Careful", plan: "agency" });
    apiKey = (
      await createApiKey(runtime.deps, {
        workspaceId: workspace.id,
        name: "k",
        scopes: ["projects", "analyze", "results", "webhooks", "reports"],
      })
    ).key;
    await runtime.close();
    server = await startServerProcess({
      DATABASE_URL: db.url,
      SIGHTLINE_SECRET_KEY: TEST_SECRET_KEY.toString("base64"),
      SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true",
      LOG_LEVEL: "debug",
      DEEPSEEK_API_KEY: SHAPED_KEY,
      DEEPSEEK_BASE_URL: vendor.url,
      SIGHTLINE_ENGINE_MAX_RETRIES: "0",
      SIGHTLINE_CUSTOM_ENGINES: JSON.stringify([
        { name: "local_llm", base_url: vendor.url, model: "llama3.1", api_key: SHAPELESS_KEY },
      ]),
    });
  });
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await vendor?.stop();
    await receiver?.stop();
    await db?.drop();
  });

  async function api(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
    const response = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, text: await response.text() };
  }

  it("scrubs a vendor's error that echoes the engine key, and a webhook receiver's answer", async () => {
    const served: string[] = [];
    const project = await api("POST", "/projects", { name: "Acme", primary_domain: "acme.com", prompts: ["best crm"] });
    expect(project.status).toBe(201);
    const projectId = JSON.parse(project.text).id as string;

    const hook = await api("POST", "/webhooks", { url: `${receiver.url}/hook`, events: ["analysis.completed"] });
    expect(hook.status).toBe(201);
    const { id: hookId, secret } = JSON.parse(hook.text) as { id: string; secret: string };
    // A careless receiver answering with what it was sent and configured with.
    receiver.answer({ status: 500, body: `bad signature for secret ${secret}; auth was Bearer ${apiKey}` });

    const analyzed = await api("POST", "/analyze", {
      project_id: projectId,
      engines: ["deepseek", "local_llm"],
      wait: true,
    });
    served.push(analyzed.text);
    expect(analyzed.status, analyzed.text).toBe(502);
    expect(JSON.parse(analyzed.text).error.code).toBe("ENGINE_FAILURE");
    // The vendor did receive both keys and said them back: the test is not vacuous.
    const sentKeys = vendor.requests.map((r) => r.headers.authorization);
    expect(sentKeys).toContain(`Bearer ${SHAPED_KEY}`);
    expect(sentKeys).toContain(`Bearer ${SHAPELESS_KEY}`);
    expect(analyzed.text).toContain("Incorrect API key provided: [redacted]");

    const analysisId = JSON.parse(analyzed.text).error.details[0].analysis_id as string;
    served.push((await api("GET", `/analyses/${analysisId}`)).text);
    const results = await api("GET", `/results?analysis_id=${analysisId}`);
    served.push(results.text);
    for (const result of JSON.parse(results.text).data as { id: string }[]) {
      served.push((await api("GET", `/results/${result.id}`)).text);
    }
    await receiver.waitFor(1, "/hook");
    // The delivery's attempt is recorded after the receiver answers: wait for it.
    let deliveries = "";
    for (let i = 0; i < 100 && !deliveries.includes("response_excerpt"); i++) {
      deliveries = (await api("GET", `/webhooks/${hookId}/deliveries`)).text;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(deliveries).toContain("bad signature for secret [redacted]");
    served.push(deliveries);

    const stored = await dumpDatabase(db);
    const logs = server.output();
    expect(logs).toContain("request");
    for (const [where, text] of [
      ["API responses", served.join("\n")],
      ["stored rows", stored],
      ["log lines", logs],
    ] as const) {
      for (const value of [SHAPED_KEY, SHAPELESS_KEY, secret, apiKey]) {
        expect(text.includes(value), `${where} contain a secret (${value.slice(0, 8)}…)`).toBe(false);
      }
    }
  });
});
