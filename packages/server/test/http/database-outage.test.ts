import net from "node:net";
import BetterSqlite3 from "better-sqlite3";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { buildHttpApp } from "../../src/http/app.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { createWorkspace } from "../../src/services/workspaces/workspaces.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";

/**
 * A TCP proxy in front of PostgreSQL that can be taken down and brought back on the same port:
 * to the server, exactly a database that stops (connections refused, open ones reset) and returns.
 */
class OutageProxy {
  #server: net.Server | null = null;
  readonly #sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    readonly targetHost: string,
    readonly targetPort: number,
  ) {}

  async up(): Promise<void> {
    if (this.#server !== null) return;
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on("close", () => this.#sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    const address = server.address();
    this.port = typeof address === "object" && address !== null ? address.port : 0;
    this.#server = server;
  }

  async down(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  }
}

function expectUnavailable(res: LightMyRequestResponse, code = "BILLING_UNAVAILABLE"): void {
  expect(res.statusCode, res.body).toBe(503);
  expect(res.json().error.code).toBe(code);
  expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
}

async function eventually(attempt: () => Promise<LightMyRequestResponse>, status: number): Promise<void> {
  let last: LightMyRequestResponse | undefined;
  for (let i = 0; i < 100; i++) {
    last = await attempt();
    if (last.statusCode === status) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(last?.statusCode, last?.body).toBe(status);
}

async function tenant(runtime: Runtime): Promise<{ workspaceId: string; keys: string[] }> {
  const workspace = await createWorkspace(runtime.deps, { name: "Outage", plan: "growth" });
  const keys: string[] = [];
  for (const name of ["a", "b"]) {
    keys.push(
      (await createApiKey(runtime.deps, { workspaceId: workspace.id, name, scopes: ["read", "projects"] })).key,
    );
  }
  return { workspaceId: workspace.id, keys };
}

describe("PostgreSQL stops under a running server", () => {
  let db: TestDatabase;
  let proxy: OutageProxy;
  let runtime: Runtime;
  let app: FastifyInstance;

  beforeAll(async () => {
    db = await createTestDatabase("postgres");
    const target = new URL(db.url);
    proxy = new OutageProxy(target.hostname, Number(target.port || 5432));
    await proxy.up();
    const viaProxy = new URL(db.url);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    runtime = await createRuntime(
      { database: { dialect: "postgres", url: viaProxy.toString(), poolSize: 4 }, secretKeys: [TEST_SECRET_KEY] },
      pino({ level: "silent" }),
    );
    app = await buildHttpApp(runtime.deps, {
      publicUrl: "http://localhost",
      bodyLimitBytes: 1 << 20,
      logger: pino({ level: "silent" }),
    });
  });
  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await proxy?.down();
    await db?.drop();
  });

  it("answers 503 with Retry-After while it is down, and serves again once it is back, without a restart", async () => {
    const { workspaceId, keys } = await tenant(runtime);
    const [cached, fresh] = keys as [string, string];
    const get = (key: string) =>
      app.inject({ method: "GET", url: "/v1/projects", headers: { authorization: `Bearer ${key}` } });
    const post = (key: string) =>
      app.inject({
        method: "POST",
        url: "/v1/projects",
        headers: { authorization: `Bearer ${key}` },
        payload: { name: "During the outage", primary_domain: "outage.example.com" },
      });
    expect((await get(cached)).statusCode).toBe(200); // this key is now cached in the process

    await proxy.down();
    // A key the process has just verified (its plan cached): the handler's query fails.
    expectUnavailable(await get(cached));
    expectUnavailable(await post(cached));
    // A key it has not seen: the plan lookup itself fails.
    expectUnavailable(await get(fresh));
    // No key: refused as ever, without the database.
    expect((await app.inject({ method: "GET", url: "/v1/projects" })).statusCode).toBe(401);
    // Health says so too.
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(503);

    await proxy.up();
    await eventually(() => get(fresh), 200);
    await eventually(() => get(cached), 200);
    expect((await post(cached)).statusCode).toBe(201);
    // Exactly one project: the one created after the outage; the refused POST wrote nothing.
    const rows = await runtime.deps.db
      .selectFrom("projects")
      .select("name")
      .where("workspace_id", "=", workspaceId)
      .execute();
    expect(rows.map((r) => r.name)).toEqual(["During the outage"]);
  });
});

describe("SQLite is locked by another process", () => {
  let db: TestDatabase;
  let runtime: Runtime;
  let app: FastifyInstance;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    runtime = await createRuntime({ database: db.config, secretKeys: [TEST_SECRET_KEY] }, pino({ level: "silent" }));
    app = await buildHttpApp(runtime.deps, {
      publicUrl: "http://localhost",
      bodyLimitBytes: 1 << 20,
      logger: pino({ level: "silent" }),
    });
  });
  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await db?.drop();
  });

  it("answers a write 503 with Retry-After after the busy timeout, and takes it once the lock is gone", async () => {
    if (db.config.dialect !== "sqlite") throw new Error("expected SQLite");
    const { workspaceId, keys } = await tenant(runtime);
    const key = keys[0] as string;
    const post = () =>
      app.inject({
        method: "POST",
        url: "/v1/projects",
        headers: { authorization: `Bearer ${key}` },
        payload: { name: "Locked out", primary_domain: "locked.example.com" },
      });
    const other = new BetterSqlite3(db.config.path);
    other.exec("BEGIN EXCLUSIVE");
    try {
      expectUnavailable(await post());
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect((await post()).statusCode).toBe(201);
    expect(
      await runtime.deps.db.selectFrom("projects").select("id").where("workspace_id", "=", workspaceId).execute(),
    ).toHaveLength(1);
  });
});
