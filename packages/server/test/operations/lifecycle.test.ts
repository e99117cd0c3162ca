import { request } from "node:http";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/app/runtime.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { createWorkspace } from "../../src/services/workspaces/workspaces.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { startServerProcess } from "../helpers/processes.ts";

describe.each(DIALECTS)("process lifecycle [%s]", (dialect) => {
  let db: TestDatabase;
  let key: string;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    const runtime = await createRuntime({ database: db.config }, pino({ level: "silent" }));
    const ws = await createWorkspace(runtime.deps, { name: "Lifecycle", plan: "growth" });
    key = (await createApiKey(runtime.deps, { workspaceId: ws.id, name: "k", scopes: ["projects"] })).key;
    await runtime.close();
  });
  afterAll(async () => db.drop());

  it("finishes an in-flight request on SIGTERM, then exits 0 and refuses new connections", async () => {
    const server = await startServerProcess({ DATABASE_URL: db.url });
    const body = JSON.stringify({ name: "Draining", primary_domain: "drain.example.com" });
    const url = new URL("/v1/projects", server.url);

    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: "POST",
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      // Half the body now, the rest after SIGTERM: the request is in flight when the signal lands.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        server.child.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 300);
    });

    const answered = await response;
    expect(answered.status, answered.body).toBe(201);
    expect(JSON.parse(answered.body).name).toBe("Draining");
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain("shutting down");
    expect(server.output()).toContain('"msg":"stopped"');
    await expect(fetch(new URL("/healthz", server.url))).rejects.toThrow();
  });

  it("serves health, the OpenAPI document and the reference without a key", async () => {
    const server = await startServerProcess({ DATABASE_URL: db.url });
    try {
      expect(await (await fetch(new URL("/healthz", server.url))).json()).toEqual({ status: "ok" });
      const doc = (await (await fetch(new URL("/v1/openapi.json", server.url))).json()) as { openapi: string };
      expect(doc.openapi).toBe("3.1.0");
      const docs = await fetch(new URL("/docs", server.url));
      expect(docs.headers.get("content-type")).toContain("text/html");
    } finally {
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    }
  });
});
