import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import pino, { type Logger } from "pino";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { createRuntime, type Runtime, type RuntimeConfig, type RuntimeOptions } from "../../src/app/runtime.ts";
import { type RunningWorker, startWorker, webhookTransport } from "../../src/app/worker.ts";
import type { Dialect } from "../../src/db/database.ts";
import { buildHttpApp } from "../../src/http/app.ts";
import type { Route } from "../../src/http/route.ts";
import { ErrorSchema } from "../../src/http/schema.ts";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { registerMcpRoute } from "../../src/mcp/http.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { SCOPES, type Scope } from "../../src/services/api-keys/scopes.ts";
import type { Deps } from "../../src/services/context.ts";
import type { PlanName } from "../../src/services/plan-names.ts";
import type { WebhookTransport } from "../../src/services/webhooks/transport.ts";
import { createWorkspace, type WorkspaceView } from "../../src/services/workspaces/workspaces.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "./databases.ts";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const responseAjv = addFormats(new Ajv({ allErrors: true, strict: false }));

export interface Tenant {
  workspace: WorkspaceView;
  key: string;
  authorization: string;
}

interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  key?: string;
  headers?: Record<string, string>;
  /** The client's address; a fresh random one by default, so per-address limits stay per test. */
  remoteAddress?: string;
}

export function randomAddress(): string {
  const byte = () => Math.floor(Math.random() * 254) + 1;
  return `10.${byte()}.${byte()}.${byte()}`;
}

/** Tables a test can count rows of, for a workspace or in all. */
export type CountedTable =
  | "projects"
  | "events"
  | "api_keys"
  | "workspaces"
  | "analyses"
  | "monitoring_schedules"
  | "monitoring_runs"
  | "webhook_endpoints"
  | "webhook_deliveries"
  | "credit_entries"
  | "reports"
  | "workspace_engines"
  | "remeasures"
  | "changes";

export interface Harness {
  dialect: Dialect;
  app: FastifyInstance;
  runtime: Runtime;
  deps: Deps;
  clock: ManualClock;
  database: TestDatabase;
  workspace(plan?: PlanName, name?: string): Promise<WorkspaceView>;
  key(workspaceId: string, scopes?: readonly Scope[]): Promise<string>;
  /** A fresh workspace on `plan` with a key holding `scopes`: the unit of test isolation. */
  tenant(plan?: PlanName, scopes?: readonly Scope[]): Promise<Tenant>;
  /** Calls a route by operationId and checks the body against the route's own schemas. */
  call(operationId: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  count(table: CountedTable, workspaceId?: string): Promise<number>;
  /** Starts a worker on this harness's runtime (stopped after the suite). */
  startWorker(transport?: WebhookTransport, options?: Parameters<typeof startWorker>[3]): Promise<RunningWorker>;
}

/** A fixed key for secrets at rest in tests; production keys come from config or the data folder. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7);

function routeById(operationId: string): Route {
  const route = V1_ROUTES.find((r) => r.operationId === operationId);
  if (route === undefined) throw new Error(`no route ${operationId}`);
  return route;
}

export function routeUrl(route: Route, params: Record<string, string> = {}): string {
  return `/v1${route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? `missing_${name}`))}`;
}

/** Fails the test if a response body does not match the schema its route declares. */
function expectBodyMatchesSchema(route: Route | undefined, response: LightMyRequestResponse): void {
  if (!String(response.headers["content-type"] ?? "").startsWith("application/json")) return; // CSV, HTML
  const body = response.json();
  const schema = response.statusCode < 300 && route !== undefined ? route.success.schema : ErrorSchema;
  const validate = responseAjv.compile(schema);
  if (!validate(body)) {
    expect.fail(
      `${route?.operationId ?? "response"} ${response.statusCode} body does not match its schema: ${responseAjv.errorsText(validate.errors)}\n${response.body}`,
    );
  }
}

/**
 * Registers beforeAll/afterAll that give the enclosing describe its own database (fresh, of
 * the dialect), runtime with a ManualClock, and in-process app.
 */
export interface HarnessOptions {
  config?: Omit<RuntimeConfig, "database">;
  runtime?: RuntimeOptions;
  /** The runtime's and the app's logger (silent by default): a test reading what is logged gives its own. */
  logger?: () => Logger;
}

export function useHarness(dialect: Dialect, options: HarnessOptions = {}): Harness {
  const h = { dialect } as Harness;
  beforeAll(async () => {
    h.database = await createTestDatabase(dialect);
    h.clock = new ManualClock(new Date("2026-11-21T12:00:00.000Z"));
    h.runtime = await createRuntime(
      { secretKeys: [TEST_SECRET_KEY], ...options.config, database: h.database.config },
      options.logger?.() ?? pino({ level: "silent" }),
      {
        ...options.runtime,
        clock: h.clock,
      },
    );
    h.deps = h.runtime.deps;
    h.app = await buildHttpApp(h.deps, {
      publicUrl: "http://localhost:8080",
      bodyLimitBytes: 1024 * 1024,
      logger: options.logger?.() ?? pino({ level: "silent" }),
      // As the process assembles it (app/server.ts): the MCP server at /mcp too.
      mounts: [registerMcpRoute],
    });
  });
  const workers: RunningWorker[] = [];
  h.startWorker = async (transport, workerOptions = {}) => {
    const url = h.database.config.dialect === "postgres" ? h.database.directUrl : null;
    const running = await startWorker(
      h.runtime,
      url,
      pino({ level: "silent" }),
      // No background scheduler: tests tick it themselves, against their moved clock.
      { concurrency: 8, pollIntervalMs: 50, leaseMs: 30_000, scheduler: false, ...workerOptions },
      transport ?? webhookTransport(h.runtime),
    );
    workers.push(running);
    return running;
  };
  afterAll(async () => {
    for (const worker of workers) await worker.stop(1_000);
    await h.app?.close();
    await h.runtime?.close();
    await h.database?.drop();
  });
  h.workspace = (plan = "growth", name = "Test workspace") => createWorkspace(h.deps, { name, plan });
  h.key = async (workspaceId, scopes = SCOPES) =>
    (await createApiKey(h.deps, { workspaceId, name: "test", scopes: [...scopes] })).key;
  h.tenant = async (plan = "growth", scopes = SCOPES) => {
    const workspace = await h.workspace(plan);
    const key = await h.key(workspace.id, scopes);
    return { workspace, key, authorization: `Bearer ${key}` };
  };
  h.call = async (operationId, options = {}) => {
    const route = routeById(operationId);
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    const response = await h.app.inject({
      method: route.method,
      url: routeUrl(route, options.params),
      query:
        options.query === undefined
          ? undefined
          : Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)])),
      headers,
      remoteAddress: options.remoteAddress ?? randomAddress(),
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });
    expectBodyMatchesSchema(route, response);
    expect(response.headers["x-request-id"]).toMatch(/^req_/);
    return response;
  };
  h.count = async (table, workspaceId) => {
    let query = h.deps.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"));
    if (workspaceId !== undefined) {
      query = query.where(sql.ref(table === "workspaces" ? "id" : "workspace_id"), "=", workspaceId);
    }
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return h;
}

/** Runs the same suite on SQLite and on PostgreSQL, each with its own fresh database. */
export function describeEachDialect(name: string, suite: (h: Harness) => void, options: HarnessOptions = {}): void {
  describe.each(DIALECTS)(`${name} [%s]`, (dialect) => {
    suite(useHarness(dialect, options));
  });
}
