import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startWorker } from "../../src/app/worker.ts";
import { dashboardRoutes } from "../../src/http/dashboard/register.ts";
import type { Route } from "../../src/http/route.ts";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { type AgencyAccess, addStaffByOperator, createAgency } from "../../src/services/agencies/agencies.ts";
import { createClient } from "../../src/services/agencies/clients.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import type { Deps } from "../../src/services/context.ts";
import { checkAccess } from "../../src/services/traffic/access.ts";
import type { WebhookTransport } from "../../src/services/webhooks/transport.ts";
import { listWorkspaces, workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { dashboard, ORIGIN, type Session, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { PUBLIC_URL, ROUTE_FIXTURES, type RouteInput } from "../helpers/fixtures.ts";
import { describeEachDialect, type Harness, randomAddress, routeUrl, type Tenant } from "../helpers/harness.ts";
import { Site } from "../helpers/website.ts";

/**
 * Issue 28's promise, probed on every route: an agency's staff work in all its clients at the role
 * their agency role gives, a client's own people see their workspace and nothing of the others,
 * and another agency sees nothing at all. The route tables are iterated, so a new route is probed
 * (or fails the coverage tests below) without anyone remembering to add it here.
 */

// Only the routes' declarations are read at collection time (paths, methods, access); their
// handlers, which close over the dependencies, run behind the harness's app, as in scripts/web-sources.ts.
const DASHBOARD_ROUTES = dashboardRoutes({} as Deps);

const PROMPTS = ["best outdoor gear?", "where to buy a tent?", "best hiking boots?", "top camping stores?"];

interface Client {
  tenant: Tenant;
  name: string;
  brand: string;
  project: string;
  analysis: string;
  result: string;
  report: string;
  schedule: string;
  webhook: string;
  change: string;
  /** A persona, a conversation script and a conversation it ran (issue 29). */
  persona: string;
  script: string;
  conversation: string;
  keyId: string;
  engine: string;
  ingestToken: string;
  invitation: string;
  /** The client's own person, invited into its workspace only. */
  member: Session;
}

interface World {
  agency: AgencyAccess;
  admin: Session;
  strategist: Session;
  viewer: Session;
  a: Client;
  b: Client;
  c: Client;
  /** A pitch of the agency, and the workspace it lives in (kind `pitch`). */
  pitch: { id: string; workspaceId: string };
  /** Another agency, its admin, and its client. */
  rival: { agency: string; admin: Session; client: string };
  site: Site;
}

/** A request of a dashboard-only route: its path parameters (but `workspace` and `agency`) and body. */
interface DashboardInput {
  params?: Record<string, string>;
  body?: unknown;
}

interface WorkspaceProbe {
  input(h: Harness, w: World, client: Client): Promise<DashboardInput>;
  /** Its parameters name the client's own resources: sent in another workspace's path they must find nothing. */
  owned?: true;
  /** Why the agency's admin does not replay it in B to show it valid (it would change what other probes look for). */
  noReplay?: string;
}

interface AgencyProbe {
  /** The least agency role the route is for; every role below gets FORBIDDEN. */
  least: AgencyRole;
  input(w: World): DashboardInput;
}

/** The agency's roles, least to most: the spec the probes hold the server to (issue 28). */
const AGENCY_ROLES = ["viewer", "strategist", "admin"] as const;
type AgencyRole = (typeof AGENCY_ROLES)[number];

function atLeast(role: AgencyRole, least: AgencyRole): boolean {
  return AGENCY_ROLES.indexOf(role) >= AGENCY_ROLES.indexOf(least);
}

// ---------------------------------------------------------------------------------------------
// Requests.

function paramNames(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].flatMap((match) => (match[1] === undefined ? [] : [match[1]]));
}

function dashboardUrl(path: string, params: Record<string, string>): string {
  return `/app/api${path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? `missing_${name}`))}`;
}

/** API v1 through the member door (`/app/api/workspaces/:workspace/v1` + the route's path), as the web app calls it. */
function viaMember(
  h: Harness,
  session: Session,
  workspaceId: string,
  route: Route,
  input: RouteInput,
): Promise<LightMyRequestResponse> {
  const raw = typeof input.body === "string";
  return h.app.inject({
    method: route.method,
    url: `/app/api/workspaces/${encodeURIComponent(workspaceId)}${routeUrl(route, input.params)}`,
    query:
      input.query === undefined
        ? undefined
        : Object.fromEntries(Object.entries(input.query).map(([k, v]) => [k, String(v)])),
    headers: { origin: ORIGIN, cookie: session.cookie, ...(raw ? { "content-type": "text/plain" } : {}) },
    remoteAddress: randomAddress(),
    ...(input.body === undefined ? {} : { payload: input.body as object }),
  });
}

/** Requests whose answer was checked, per dialect: printed after the suite. */
const tally = { probes: 0 };

/** The route answered one of its success statuses. */
function expectSuccess(
  route: { success: { status: number; also?: { status: number }[] } },
  res: LightMyRequestResponse,
  what: string,
): void {
  tally.probes++;
  const statuses = [route.success.status, ...(route.success.also ?? []).map((other) => other.status)];
  expect(statuses, `${what}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
}

function expectStatus(res: LightMyRequestResponse, status: number, what: string, code?: string): void {
  tally.probes++;
  expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
  if (code !== undefined) expect(res.json().error.code, what).toBe(code);
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}

function markersOf(client: Client): string[] {
  return [
    client.tenant.workspace.id,
    client.name,
    client.brand,
    client.project,
    client.analysis,
    client.result,
    client.report,
    client.schedule,
    client.webhook,
    client.change,
    client.persona,
    client.script,
    client.conversation,
    client.keyId,
    client.engine,
    client.ingestToken,
    client.invitation,
    client.member.user.id,
    client.member.user.email,
  ];
}

/**
 * Fails if `body` holds anything of `client`. What the caller sent may come back in an error's
 * message ("No project with id '…' exists in this workspace"): it knew it already, so it is taken
 * out first; anything else of the client (its name, its brand, ids it did not send) is a leak.
 */
function expectNothingOf(clients: Client[], body: string, sent: unknown, what: string): void {
  let rest = body;
  for (const value of stringsIn(sent)) if (value.length >= 6) rest = rest.replaceAll(value, "");
  for (const client of clients) {
    for (const marker of markersOf(client)) expect(rest, `${what} shows ${marker}`).not.toContain(marker);
  }
}

// ---------------------------------------------------------------------------------------------
// What a request could change: every row of every table that belongs to a workspace or an agency.

/** Written on a timer whatever the requests do (the requests metered); rowsOf leaves out `last_used_at` likewise. */
const VOLATILE_TABLES = new Set(["usage_requests"]);

interface Scoped {
  workspace: string[];
  agency: string[];
}

/** The tables holding a workspace's or an agency's rows, as the migrated database has them (views left out). */
async function scopedTables(h: Harness): Promise<Scoped> {
  const tables = (await h.deps.db.introspection.getTables()).filter(
    (table) => !table.isView && (table.schema === undefined || table.schema === "public"),
  );
  const having = (column: string) =>
    [
      ...new Set(tables.filter((table) => table.columns.some((c) => c.name === column)).map((table) => table.name)),
    ].filter((name) => !VOLATILE_TABLES.has(name));
  return { workspace: having("workspace_id"), agency: having("agency_id") };
}

async function rowsOf(h: Harness, table: string, column: string, id: string): Promise<string[]> {
  const { rows } = await sql<
    Record<string, unknown>
  >`select * from ${sql.table(table)} where ${sql.ref(column)} = ${id}`.execute(h.deps.db);
  return rows.map(({ last_used_at: _, ...row }) => JSON.stringify(row)).sort();
}

async function stateOf(h: Harness, scoped: Scoped, workspaceId: string): Promise<Record<string, string[]>> {
  const tables = [["workspaces", "id"], ...scoped.workspace.map((table) => [table, "workspace_id"])] as const;
  const rows = await Promise.all(tables.map(([table, column]) => rowsOf(h, table, column, workspaceId)));
  return Object.fromEntries(tables.map(([table], i) => [table, rows[i] ?? []]));
}

async function agencyStateOf(h: Harness, scoped: Scoped, agencyId: string): Promise<Record<string, string[]>> {
  const tables = [["agencies", "id"], ...scoped.agency.map((table) => [table, "agency_id"])] as const;
  const rows = await Promise.all(tables.map(([table, column]) => rowsOf(h, table, column, agencyId)));
  return Object.fromEntries(tables.map(([table], i) => [table, rows[i] ?? []]));
}

/** Ids of the workspace's own resources, to tell whether a request names one of them. */
async function idsOf(h: Harness, workspaceId: string): Promise<string[]> {
  const ids: string[] = [];
  for (const table of ["projects", "analyses", "results", "monitoring_schedules", "reports", "webhook_endpoints"]) {
    const { rows } = await sql<{
      id: string;
    }>`select id from ${sql.table(table)} where workspace_id = ${workspaceId}`.execute(h.deps.db);
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------
// The world: an agency with three clients holding real data, its staff, a client's people, another agency.

async function invited(h: Harness, by: Session, workspaceId: string, role: string, name: string): Promise<Session> {
  const email = uniqueEmail(name.toLowerCase().replace(/[^a-z0-9]+/g, "."));
  const res = await dashboard(h, "POST", `/app/api/workspaces/${workspaceId}/invitations`, {
    cookie: by.cookie,
    body: { email, role },
  });
  expectStatus(res, 201, `inviting ${email}`);
  const link = res.json().link as string;
  return signUp(h, { name, email, invitation: link.slice(link.lastIndexOf("/") + 1) });
}

async function created(response: Promise<LightMyRequestResponse>, what: string): Promise<string> {
  const res = await response;
  expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
  return res.json().id as string;
}

async function seedClient(
  h: Harness,
  agency: AgencyAccess,
  admin: Session,
  spec: { name: string; brand: string; slug: string; memberRole: string },
): Promise<Client> {
  const row = await createClient(h.deps, agency, { name: spec.name });
  const workspace = (await listWorkspaces(h.deps)).find((ws) => ws.id === row.id);
  if (workspace === undefined) throw new Error(`no workspace ${row.id}`);
  const key = await h.key(workspace.id);
  const tenant: Tenant = { workspace, key, authorization: `Bearer ${key}` };
  const v1 = (operationId: string, input: RouteInput) => h.call(operationId, { ...input, key });
  const webhook = await created(
    v1("createWebhook", { body: { url: PUBLIC_URL, events: ["project.created", "analysis.completed"] } }),
    "webhook",
  );
  const project = await created(
    v1("createProject", { body: { name: spec.brand, primary_domain: `${spec.slug}.example.com`, prompts: PROMPTS } }),
    "brand",
  );
  const analyzed = await v1("analyze", { body: { project_id: project, engines: ["sandbox"], samples: 1, wait: 30 } });
  expect(analyzed.statusCode, analyzed.body).toBe(200);
  expect(analyzed.json().status).toBe("completed");
  const analysis = analyzed.json().id as string;
  const results = (await v1("listResults", { query: { analysis_id: analysis } })).json().data as { id: string }[];
  expect(results).toHaveLength(PROMPTS.length);
  const reports = (await v1("listReports", { query: { project_id: project } })).json().data as { id: string }[];
  const report = reports[0]?.id;
  if (report === undefined) throw new Error("the finished analysis wrote no report");
  const persona = await created(
    v1("createPersona", { params: { id: project }, body: { name: `${spec.brand} buyer`, active: false } }),
    "persona",
  );
  const script = await created(
    v1("createConversationScript", {
      params: { id: project },
      body: { name: `${spec.brand} follow-up`, turns: [PROMPTS[0] ?? "", "And cheaper?"], active: false },
    }),
    "script",
  );
  const conversed = await v1("analyze", {
    body: {
      project_id: project,
      engines: ["sandbox"],
      prompts: [PROMPTS[0]],
      personas: [persona],
      scripts: [script],
      wait: 30,
    },
  });
  expect(conversed.statusCode, conversed.body).toBe(200);
  const conversation = (
    await v1("listConversations", { params: { id: project }, query: { analysis_id: conversed.json().id } })
  ).json().data[0]?.id as string;
  const schedule = await created(
    v1("createMonitoring", { body: { project_id: project, prompts: PROMPTS, schedule: { every: "day" } } }),
    "schedule",
  );
  const change = await created(
    v1("createChange", { params: { id: project }, body: { title: "New tents page", prompts: PROMPTS.slice(0, 2) } }),
    "change",
  );
  // Its sites' access audit, read from a web that answers 404 to everything (as the route fixture
  // does): reading it later reads what is stored, and no test asks the internet.
  await checkAccess(await workspaceContext(h.deps, workspace.id), project, {
    fetcher: {
      get: async (url) => ({ ok: true, url, status: 404, contentType: "text/html", body: "", truncated: false }),
    },
  });
  const keyRow = await h.deps.db
    .selectFrom("api_keys")
    .select("id")
    .where("workspace_id", "=", workspace.id)
    .executeTakeFirstOrThrow();
  const settings = `/app/api/workspaces/${workspace.id}`;
  const engine = `${spec.slug}_llm`;
  await created(
    dashboard(h, "POST", `${settings}/engines`, {
      cookie: admin.cookie,
      body: { name: engine, title: `${spec.brand} LLM`, base_url: "http://127.0.0.1:9/v1", model: "m1" },
    }),
    "custom engine",
  );
  const ingestToken = await created(
    dashboard(h, "POST", `${settings}/projects/${project}/ingest-tokens`, {
      cookie: admin.cookie,
      body: { name: "drain" },
    }),
    "ingest token",
  );
  const invitation = await created(
    dashboard(h, "POST", `${settings}/invitations`, {
      cookie: admin.cookie,
      body: { email: uniqueEmail(`pending.${spec.slug}`), role: "viewer" },
    }),
    "invitation",
  );
  const member = await invited(h, admin, workspace.id, spec.memberRole, `${spec.slug} person`);
  return {
    tenant,
    name: spec.name,
    brand: spec.brand,
    project,
    analysis,
    result: results[0]?.id ?? "",
    report,
    schedule,
    webhook,
    change,
    persona,
    script,
    conversation,
    keyId: keyRow.id,
    engine,
    ingestToken,
    invitation,
    member,
  };
}

/** Webhook receivers are the edge we do not own: the seeding's deliveries are answered here. */
const receiver: WebhookTransport = {
  send: async () => ({ statusCode: 200, latencyMs: 1, excerpt: null, error: null }),
};

async function buildWorld(h: Harness): Promise<World> {
  const admin = await signUp(h, { name: "Agency admin" });
  const strategist = await signUp(h, { name: "Agency strategist" });
  const viewer = await signUp(h, { name: "Agency viewer" });
  const made = await createAgency(h.deps, { name: "Northwind Agency", adminUserId: admin.user.id });
  const agency: AgencyAccess = { ...made, role: "admin" };
  await addStaffByOperator(h.deps, agency.id, strategist.user.email, "strategist");
  await addStaffByOperator(h.deps, agency.id, viewer.user.email, "viewer");

  // Analyses run on the sandbox engine in a worker of their own, stopped before any probe, so
  // that nothing changes a client's rows behind the probes' backs.
  const worker = await startWorker(
    h.runtime,
    null,
    pino({ level: "silent" }),
    { pollIntervalMs: 20, scheduler: false },
    receiver,
  );
  let a: Client;
  let b: Client;
  let c: Client;
  try {
    // A's person is an admin there: every route of A is open to them, so B's ids in A's path
    // reach the lookups rather than stopping at a missing permission.
    a = await seedClient(h, agency, admin, {
      name: "Alpha Client",
      brand: "Alpha Outfitters",
      slug: "alpha",
      memberRole: "admin",
    });
    b = await seedClient(h, agency, admin, {
      name: "Bravo Client",
      brand: "Bravo Outdoor Co",
      slug: "bravo",
      memberRole: "member",
    });
    c = await seedClient(h, agency, admin, {
      name: "Charlie Client",
      brand: "Charlie Camping",
      slug: "charlie",
      memberRole: "member",
    });
  } finally {
    await worker.stop(5_000);
  }

  // C's own membership row says the strategist is a viewer there: it wins over the agency role.
  const toC = await dashboard(h, "POST", `/app/api/workspaces/${c.tenant.workspace.id}/invitations`, {
    cookie: admin.cookie,
    body: { email: strategist.user.email, role: "viewer" },
  });
  expectStatus(toC, 201, "inviting the strategist into C");
  const link = toC.json().link as string;
  const accepted = await dashboard(h, "POST", `/app/api/invitations/${link.slice(link.lastIndexOf("/") + 1)}/accept`, {
    cookie: strategist.cookie,
    body: {},
  });
  expectStatus(accepted, 200, "the strategist accepting C's invitation");

  const site = await new Site().start();
  site.pages.set("/", {
    body: '<html lang="en"><head><title>Delta Bikes | Bikes for everyone</title></head><body><h1>Delta Bikes</h1></body></html>',
  });
  const pitched = await dashboard(h, "POST", `/app/api/agencies/${agency.id}/pitches`, {
    cookie: strategist.cookie,
    body: { website: site.url },
  });
  expectStatus(pitched, 201, "the strategist starting a pitch");
  const pitch = { id: pitched.json().pitch.id as string, workspaceId: pitched.json().pitch.workspace_id as string };

  const rivalAdmin = await signUp(h, { name: "Rival admin" });
  const rival = await createAgency(h.deps, { name: "Rival Agency", adminUserId: rivalAdmin.user.id });
  const rivalClient = await createClient(h.deps, { ...rival, role: "admin" }, { name: "Rival's client" });
  return {
    agency,
    admin,
    strategist,
    viewer,
    a,
    b,
    c,
    pitch,
    rival: { agency: rival.id, admin: rivalAdmin, client: rivalClient.id },
    site,
  };
}

// ---------------------------------------------------------------------------------------------
// A request for every dashboard-only route.

async function freshMember(h: Harness, w: World, client: Client): Promise<string> {
  return (await invited(h, w.admin, client.tenant.workspace.id, "viewer", "Fresh person")).user.id;
}

async function freshEngine(h: Harness, w: World, client: Client): Promise<string> {
  const name = `probe_${Math.random().toString(36).slice(2, 10)}`;
  await created(
    dashboard(h, "POST", `/app/api/workspaces/${client.tenant.workspace.id}/engines`, {
      cookie: w.admin.cookie,
      body: { name, title: "Probe LLM", base_url: "http://127.0.0.1:9/v1", model: "m1" },
    }),
    "engine",
  );
  return name;
}

/** An application the agency's admin connected to the client's workspace (ADR 0038), as the flow leaves it. */
async function freshConnection(h: Harness, w: World, client: Client): Promise<string> {
  const now = h.clock.now().toISOString();
  const later = new Date(h.clock.now().getTime() + 86_400_000).toISOString();
  const app = `cli_${Math.random().toString(36).slice(2, 12).padEnd(24, "0")}`;
  await h.deps.db
    .insertInto("oauth_clients")
    .values({
      id: app,
      name: "Probe assistant",
      client_uri: null,
      redirect_uris: JSON.stringify(["http://127.0.0.1:9/cb"]),
      auth_method: "none",
      secret_hash: null,
      created_at: now,
    })
    .execute();
  const id = `con_${Math.random().toString(36).slice(2, 12).padEnd(24, "0")}`;
  await h.deps.db
    .insertInto("oauth_connections")
    .values({
      id,
      workspace_id: client.tenant.workspace.id,
      user_id: w.admin.user.id,
      client_id: app,
      scopes: JSON.stringify(["read"]),
      access_hash: `probe-access-${id}`,
      access_expires_at: later,
      refresh_hash: `probe-refresh-${id}`,
      refresh_expires_at: later,
      spent_refresh_hash: null,
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return id;
}

/** Routes under `/workspaces/:workspace`: a request each, made valid for `client`. */
const WORKSPACE_PROBES: Record<string, WorkspaceProbe> = {
  getWorkspace: { input: async () => ({}) },
  renameWorkspace: {
    input: async () => ({ body: { name: "Renamed by a stranger" } }),
    noReplay: "renaming B would change the name every other probe looks for",
  },
  deleteWorkspace: {
    input: async (_h, _w, client) => ({ body: { confirm_name: client.name } }),
    noReplay: "it would delete B",
  },
  listMembers: { input: async () => ({}) },
  changeMemberRole: {
    input: async (h, w, client) => ({ params: { user_id: await freshMember(h, w, client) }, body: { role: "admin" } }),
    owned: true,
  },
  removeMember: {
    input: async (h, w, client) => ({ params: { user_id: await freshMember(h, w, client) } }),
    owned: true,
  },
  listInvitations: { input: async () => ({}) },
  createInvitation: { input: async () => ({ body: { email: uniqueEmail("probe"), role: "viewer" } }) },
  revokeInvitation: {
    input: async (h, w, client) => ({
      params: {
        id: await created(
          dashboard(h, "POST", `/app/api/workspaces/${client.tenant.workspace.id}/invitations`, {
            cookie: w.admin.cookie,
            body: { email: uniqueEmail("revocable"), role: "viewer" },
          }),
          "invitation",
        ),
      },
    }),
    owned: true,
  },
  listApiKeys: { input: async () => ({}) },
  createApiKey: { input: async () => ({ body: { name: "probe", scopes: ["read"] } }) },
  revokeApiKey: {
    input: async (h, _w, client) => ({
      params: {
        id: (
          await createApiKey(h.deps, { workspaceId: client.tenant.workspace.id, name: "revocable", scopes: ["read"] })
        ).id,
      },
    }),
    owned: true,
  },
  listConnectedApps: { input: async () => ({}) },
  disconnectApp: {
    input: async (h, w, client) => ({ params: { id: await freshConnection(h, w, client) } }),
    owned: true,
  },
  listEngineStatuses: { input: async () => ({}) },
  createEngine: {
    input: async () => ({
      body: {
        name: `new_${Math.random().toString(36).slice(2, 10)}`,
        title: "New LLM",
        base_url: "http://127.0.0.1:9/v1",
        model: "m1",
      },
    }),
  },
  updateEngine: {
    input: async (h, w, client) => ({
      params: { engine: await freshEngine(h, w, client) },
      body: { title: "Renamed LLM" },
    }),
    owned: true,
  },
  removeEngine: {
    input: async (h, w, client) => ({ params: { engine: await freshEngine(h, w, client) } }),
    owned: true,
  },
  // Nothing listens on 127.0.0.1:9: the replay's test fails at once, and answers 200 saying so.
  testEngine: { input: async (h, w, client) => ({ params: { engine: await freshEngine(h, w, client) } }), owned: true },
  getBranding: { input: async () => ({}) },
  updateBranding: { input: async () => ({ body: { primary: "#123456" } }) },
  listIngestTokens: { input: async (_h, _w, client) => ({ params: { id: client.project } }), owned: true },
  createIngestToken: {
    input: async (_h, _w, client) => ({ params: { id: client.project }, body: { name: "probe" } }),
    owned: true,
  },
  revokeIngestToken: {
    input: async (h, w, client) => ({
      params: {
        id: client.project,
        token_id: await created(
          dashboard(
            h,
            "POST",
            `/app/api/workspaces/${client.tenant.workspace.id}/projects/${client.project}/ingest-tokens`,
            {
              cookie: w.admin.cookie,
              body: { name: "revocable" },
            },
          ),
          "ingest token",
        ),
      },
    }),
    owned: true,
  },
  getDigestSubscription: { input: async (_h, _w, client) => ({ params: { project_id: client.project } }), owned: true },
  setDigestSubscription: {
    input: async (_h, _w, client) => ({ params: { project_id: client.project }, body: { subscribed: false } }),
    owned: true,
  },
};

/** Routes under `/agencies/:agency`, with the least role each is for. */
const AGENCY_PROBES: Record<string, AgencyProbe> = {
  getAgency: { least: "viewer", input: () => ({}) },
  renameAgency: { least: "admin", input: () => ({ body: { name: "Taken over" } }) },
  listAgencyClients: { least: "viewer", input: () => ({}) },
  createAgencyClient: { least: "admin", input: () => ({ body: { name: "Smuggled client" } }) },
  updateAgencyClient: {
    least: "admin",
    input: (w) => ({ params: { workspace: w.b.tenant.workspace.id }, body: { credit_cap: 1 } }),
  },
  listAgencyStaff: { least: "viewer", input: () => ({}) },
  addAgencyStaff: { least: "admin", input: (w) => ({ body: { email: w.a.member.user.email, role: "admin" } }) },
  changeAgencyStaffRole: {
    least: "admin",
    input: (w) => ({ params: { user: w.viewer.user.id }, body: { role: "admin" } }),
  },
  removeAgencyStaff: { least: "admin", input: (w) => ({ params: { user: w.strategist.user.id } }) },
  getAgencyBranding: { least: "viewer", input: () => ({}) },
  updateAgencyBranding: { least: "admin", input: () => ({ body: { name: "Taken over" } }) },
  listPitches: { least: "viewer", input: () => ({}) },
  createPitch: { least: "strategist", input: (w) => ({ body: { website: w.site.url } }) },
  getPitch: { least: "viewer", input: (w) => ({ params: { pitch: w.pitch.id } }) },
  runPitch: {
    least: "strategist",
    input: (w) => ({
      params: { pitch: w.pitch.id },
      body: { name: "Delta Bikes", prompts: ["best bikes?"], competitors: [] },
    }),
  },
  sharePitch: { least: "strategist", input: (w) => ({ params: { pitch: w.pitch.id } }) },
  convertPitch: { least: "admin", input: (w) => ({ params: { pitch: w.pitch.id }, body: {} }) },
  deletePitch: { least: "strategist", input: (w) => ({ params: { pitch: w.pitch.id } }) },
};

/** Routes naming neither a workspace nor an agency in their path: where each is probed, or why it is not. */
const ACCOUNT_ROUTES: Record<string, string> = {
  getSetup: "public: whether the installation waits for its first account",
  signUp: "public: makes an account, in an invitation's workspace or one of its own",
  getMe: "probed below: lists the caller's workspaces only",
  createWorkspace: "makes a workspace of the caller's own",
  getHost: "public: the branding of the host the request came in on",
  listAgencies: "probed below: the caller's agencies only",
  createAgency: "probed below: naming another's workspace is NOT_FOUND",
  previewInvitation: "opened by an invitation's secret token, which is the authority",
  acceptInvitation: "opened by an invitation's secret token, for the invited address only",
  previewAuthorization:
    "the caller's own workspaces only; probed in mcp-oauth.test.ts (a viewer is offered read, nothing else)",
  decideAuthorization:
    "names a workspace in its body; probed in mcp-oauth.test.ts (one the caller is not a member of is NOT_FOUND)",
};

it("every v1 route has a fixture, and every dashboard route a probe", () => {
  expect(V1_ROUTES.map((r) => r.operationId).filter((id) => !(id in ROUTE_FIXTURES))).toEqual([]);
  const unprobed = DASHBOARD_ROUTES.filter((route) => {
    if (route.path.startsWith("/workspaces/:workspace")) return !(route.operationId in WORKSPACE_PROBES);
    if (route.path.startsWith("/agencies/:agency")) return !(route.operationId in AGENCY_PROBES);
    return !(route.operationId in ACCOUNT_ROUTES);
  });
  expect(unprobed.map((route) => `${route.operationId} ${route.path}`)).toEqual([]);
});

describeEachDialect(
  "agency isolation",
  (h) => {
    let w: World;
    let scoped: Scoped;

    beforeAll(async () => {
      tally.probes = 0;
      w = await buildWorld(h);
      scoped = await scopedTables(h);
    }, 120_000);
    afterAll(async () => {
      console.log(
        `agency isolation [${h.dialect}]: ${V1_ROUTES.length} v1 routes, ${DASHBOARD_ROUTES.length} dashboard routes, ${tally.probes} checked answers`,
      );
      await w?.site.stop();
    });

    const clients = () => [w.a, w.b, w.c];
    const staff = (): [AgencyRole, Session][] => [
      ["admin", w.admin],
      ["strategist", w.strategist],
      ["viewer", w.viewer],
    ];
    /**
     * Who must find nothing where: A's person anywhere but A (B and C with their own ids, the
     * agency's pitch, another agency's client), the other agency's admin in this agency's
     * workspaces, and this agency's admin in the other agency's client.
     */
    const doorProbes = <I>(inB: I, inC: I): [string, Session, string, I][] => [
      ["A's person in B", w.a.member, w.b.tenant.workspace.id, inB],
      ["A's person in C", w.a.member, w.c.tenant.workspace.id, inC],
      ["A's person in the agency's pitch", w.a.member, w.pitch.workspaceId, inB],
      ["A's person in another agency's client", w.a.member, w.rival.client, inB],
      ["the other agency's admin in B", w.rival.admin, w.b.tenant.workspace.id, inB],
      ["the other agency's admin in the agency's pitch", w.rival.admin, w.pitch.workspaceId, inB],
      ["the agency's admin in the other agency's client", w.admin, w.rival.client, inB],
    ];
    /** The workspace role a member of staff has in a client: their agency role's, unless the client's own row says otherwise. */
    const roleIn = (role: AgencyRole, client: Client): string =>
      role === "strategist" && client === w.c
        ? "viewer"
        : { admin: "owner", strategist: "member", viewer: "viewer" }[role];

    // -- 1. The agency's staff ------------------------------------------------------------------

    it("staff: /app/api/me lists A, B and C with their agency, at the role each gives, and no pitch or other agency's client", async () => {
      for (const [role, session] of staff()) {
        const me = await dashboard(h, "GET", "/app/api/me", { cookie: session.cookie });
        expectStatus(me, 200, `${role}'s /me`);
        const listed = (me.json().workspaces as { id: string; agency: unknown }[]).filter((ws) => ws.agency !== null);
        const expected = clients().map((client) => ({
          id: client.tenant.workspace.id,
          name: client.name,
          plan: "agency",
          role: roleIn(role, client),
          agency: { id: w.agency.id, name: w.agency.name },
        }));
        const byId = (x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id);
        expect(listed.sort(byId), role).toEqual(expected.sort(byId));
        expect(me.body).not.toContain(w.pitch.workspaceId);
        expect(me.body).not.toContain(w.rival.client);
      }
    });

    it("staff: every role reads every client's brands through the member door, each client its own only", async () => {
      for (const [role, session] of staff()) {
        for (const client of clients()) {
          const res = await dashboard(h, "GET", `/app/api/workspaces/${client.tenant.workspace.id}/v1/projects`, {
            cookie: session.cookie,
          });
          expectStatus(res, 200, `${role} reading ${client.name}`);
          expect((res.json().data as { name: string }[]).map((p) => p.name)).toContain(client.brand);
          // The leak check sees a client's data where it is shown: its silence elsewhere means something.
          expect(() => expectNothingOf([client], res.body, [], "")).toThrow();
          expectNothingOf(
            clients().filter((other) => other !== client),
            res.body,
            [],
            `${role} reading ${client.name}`,
          );
        }
      }
    });

    it("staff: rights follow the role (a viewer reads, a strategist works, only an admin manages keys, caps and staff)", async () => {
      for (const [role, session] of staff()) {
        for (const client of clients()) {
          const ws = `/app/api/workspaces/${client.tenant.workspace.id}`;
          const inClient = roleIn(role, client);
          const what = `${role} (${inClient}) in ${client.name}`;
          const before = await h.count("projects", client.tenant.workspace.id);
          const project = await dashboard(h, "POST", `${ws}/v1/projects`, {
            cookie: session.cookie,
            body: { name: `${role} brand`, primary_domain: `${role}.example.com` },
          });
          if (inClient === "viewer") {
            expectStatus(project, 403, `${what} creating a brand`, "FORBIDDEN");
            expect(await h.count("projects", client.tenant.workspace.id)).toBe(before);
          } else expectStatus(project, 201, `${what} creating a brand`);
          const key = await dashboard(h, "POST", `${ws}/api-keys`, {
            cookie: session.cookie,
            body: { name: `${role} key`, scopes: ["read"] },
          });
          if (inClient === "owner") expectStatus(key, 201, `${what} creating a key`);
          else expectStatus(key, 403, `${what} creating a key`, "FORBIDDEN");
          const webhook = await dashboard(h, "POST", `${ws}/v1/webhooks`, {
            cookie: session.cookie,
            body: { url: PUBLIC_URL, events: ["project.created"] },
          });
          if (inClient === "owner") expectStatus(webhook, 201, `${what} subscribing a webhook`);
          else expectStatus(webhook, 403, `${what} subscribing a webhook`, "FORBIDDEN");
          const cap = await dashboard(
            h,
            "PATCH",
            `/app/api/agencies/${w.agency.id}/clients/${client.tenant.workspace.id}`,
            {
              cookie: session.cookie,
              body: { credit_cap: 5_000 },
            },
          );
          if (role === "admin") {
            expectStatus(cap, 200, `${what} capping the client`);
            expect(cap.json().credit_cap).toBe(5_000);
            const uncapped = await dashboard(
              h,
              "PATCH",
              `/app/api/agencies/${w.agency.id}/clients/${client.tenant.workspace.id}`,
              {
                cookie: session.cookie,
                body: { credit_cap: null },
              },
            );
            expectStatus(uncapped, 200, "lifting the cap");
          } else expectStatus(cap, 403, `${what} capping the client`, "FORBIDDEN");
        }
        const before = await agencyStateOf(h, scoped, w.agency.id);
        // The viewer again, as a viewer: the one change an admin makes here is none.
        const added = await dashboard(h, "POST", `/app/api/agencies/${w.agency.id}/staff`, {
          cookie: session.cookie,
          body: { email: w.viewer.user.email, role: "viewer" },
        });
        if (role === "admin") expectStatus(added, 201, "the admin adding staff");
        else expectStatus(added, 403, `${role} adding staff`, "FORBIDDEN");
        const after = await agencyStateOf(h, scoped, w.agency.id);
        expect(after.agency_members).toEqual(before.agency_members);
      }
    });

    it("staff: someone removed from the agency finds its clients gone at once", async () => {
      const leaver = await signUp(h, { name: "Leaving strategist" });
      await addStaffByOperator(h.deps, w.agency.id, leaver.user.email, "strategist");
      const projects = `/app/api/workspaces/${w.b.tenant.workspace.id}/v1/projects`;
      expectStatus(await dashboard(h, "GET", projects, { cookie: leaver.cookie }), 200, "staff reading B");
      const removed = await dashboard(h, "DELETE", `/app/api/agencies/${w.agency.id}/staff/${leaver.user.id}`, {
        cookie: w.admin.cookie,
      });
      expectStatus(removed, 200, "the admin removing them");
      expectStatus(
        await dashboard(h, "GET", projects, { cookie: leaver.cookie }),
        404,
        "the leaver reading B",
        "NOT_FOUND",
      );
      const me = await dashboard(h, "GET", "/app/api/me", { cookie: leaver.cookie });
      expect((me.json().workspaces as { agency: unknown }[]).filter((ws) => ws.agency !== null)).toEqual([]);
      const agency = await dashboard(h, "GET", `/app/api/agencies/${w.agency.id}`, { cookie: leaver.cookie });
      expectStatus(agency, 404, "the leaver reading the agency", "NOT_FOUND");
    });

    // -- 5. Pitches -----------------------------------------------------------------------------

    it("pitches: an agency viewer reads them, and may not start one (403, nothing made)", async () => {
      const pitches = `/app/api/agencies/${w.agency.id}/pitches`;
      const listed = await dashboard(h, "GET", pitches, { cookie: w.viewer.cookie });
      expectStatus(listed, 200, "the viewer listing pitches");
      expect((listed.json().data as { id: string }[]).map((p) => p.id)).toContain(w.pitch.id);
      expectStatus(
        await dashboard(h, "GET", `${pitches}/${w.pitch.id}`, { cookie: w.viewer.cookie }),
        200,
        "the viewer reading the pitch",
      );
      const before = await agencyStateOf(h, scoped, w.agency.id);
      const started = await dashboard(h, "POST", pitches, { cookie: w.viewer.cookie, body: { website: w.site.url } });
      expectStatus(started, 403, "the viewer starting a pitch", "FORBIDDEN");
      expect(await agencyStateOf(h, scoped, w.agency.id)).toEqual(before);
    });

    // -- 2. A client's own person ---------------------------------------------------------------

    it("A's person: /app/api/me lists A only, no agency of theirs, and B named in an agency's creation is NOT_FOUND", async () => {
      const me = await dashboard(h, "GET", "/app/api/me", { cookie: w.a.member.cookie });
      expectStatus(me, 200, "/me");
      expect(me.json().workspaces).toEqual([
        {
          id: w.a.tenant.workspace.id,
          name: w.a.name,
          plan: "agency",
          role: "admin",
          agency: { id: w.agency.id, name: w.agency.name },
        },
      ]);
      expectNothingOf([w.b, w.c], me.body, [], "/me");
      const agencies = await dashboard(h, "GET", "/app/api/agencies", { cookie: w.a.member.cookie });
      expectStatus(agencies, 200, "listing agencies");
      expect(agencies.json().data).toEqual([]);
      const before = await stateOf(h, scoped, w.b.tenant.workspace.id);
      const taken = await dashboard(h, "POST", "/app/api/agencies", {
        cookie: w.a.member.cookie,
        body: { name: "Mine now", workspace_id: w.b.tenant.workspace.id },
      });
      expectStatus(taken, 404, "an agency made of B", "NOT_FOUND");
      expect(await stateOf(h, scoped, w.b.tenant.workspace.id)).toEqual(before);
    });

    it("another agency's admin: /app/api/me and /app/api/agencies show nothing of this agency", async () => {
      const me = await dashboard(h, "GET", "/app/api/me", { cookie: w.rival.admin.cookie });
      expectStatus(me, 200, "/me");
      expectNothingOf(clients(), me.body, [], "the rival's /me");
      expect(me.body).not.toContain(w.agency.id);
      const agencies = await dashboard(h, "GET", "/app/api/agencies", { cookie: w.rival.admin.cookie });
      expect((agencies.json().data as { id: string }[]).map((agency) => agency.id)).toEqual([w.rival.agency]);
      const taken = await dashboard(h, "POST", "/app/api/agencies", {
        cookie: w.rival.admin.cookie,
        body: { name: "Mine now", workspace_id: w.b.tenant.workspace.id },
      });
      expectStatus(taken, 404, "an agency made of B", "NOT_FOUND");
    });

    // -- 2 and 3. Every route of API v1 ---------------------------------------------------------

    for (const route of V1_ROUTES) {
      const fixture = ROUTE_FIXTURES[route.operationId];
      if (fixture === undefined) continue; // reported by the coverage test
      const params = paramNames(route.path);
      it(`${route.method} /v1${route.path}: NOT_FOUND for A's person in B and C, and for B's ids in A's path or with A's key`, async () => {
        const [A, B, C] = clients().map((client) => client.tenant.workspace.id) as [string, string, string];
        const inB = await fixture(h, w.b.tenant);
        const inC = await fixture(h, w.c.tenant);
        // A's own first id with B's further ones (A's brand, B's change): the nested lookup must
        // check the workspace too, not only the parent.
        const mixed =
          params.length > 1
            ? {
                ...inB,
                params: {
                  ...inB.params,
                  [params[0] ?? ""]: (await fixture(h, w.a.tenant)).params?.[params[0] ?? ""] ?? "",
                },
              }
            : null;
        const before = { B: await stateOf(h, scoped, B), C: await stateOf(h, scoped, C) };

        // The member door, to every workspace its caller has no part in.
        for (const [who, session, workspaceId, input] of doorProbes(inB, inC)) {
          const res = await viaMember(h, session, workspaceId, route, input);
          expectStatus(res, 404, who, "NOT_FOUND");
          expectNothingOf([w.b, w.c], res.body, [workspaceId, input], who);
        }

        const namesB = params.length > 0 || (await idsOf(h, B)).some((id) => JSON.stringify(inB).includes(id));
        if (namesB) {
          for (const input of mixed === null ? [inB] : [inB, mixed]) {
            for (const [who, session] of [
              ["A's person", w.a.member],
              ["the agency's admin", w.admin],
            ] as const) {
              const res = await viaMember(h, session, A, route, input);
              expectStatus(res, 404, `${who} with B's ids in A's path`, "NOT_FOUND");
              expectNothingOf([w.b], res.body, input, `${who} with B's ids in A's path`);
            }
            const res = await h.call(route.operationId, { ...input, key: w.a.tenant.key });
            expectStatus(res, 404, "A's key with B's ids", "NOT_FOUND");
            expectNothingOf([w.b], res.body, input, "A's key with B's ids");
          }
        } else if (route.method === "GET") {
          // A read naming nothing of B: A's own answer, with nothing of B or C in it.
          const member = await viaMember(h, w.a.member, A, route, inB);
          expectSuccess(route, member, "A's person reading A");
          expectNothingOf([w.b, w.c], member.body, inB, "A's person reading A");
          const keyed = await h.call(route.operationId, { ...inB, key: w.a.tenant.key });
          expectSuccess(route, keyed, "A's key reading A");
          expectNothingOf([w.b, w.c], keyed.body, inB, "A's key reading A");
        }

        expect(await stateOf(h, scoped, B), "B changed").toEqual(before.B);
        expect(await stateOf(h, scoped, C), "C changed").toEqual(before.C);
        // The same request from the agency's admin in B succeeds: the refusals above were the
        // workspace's doing, not a request that could not have worked.
        expectSuccess(route, await viaMember(h, w.admin, B, route, inB), "the agency's admin replaying it in B");
      });
    }

    it("list filters naming B's brand, analysis or schedule answer nothing of B, to A's person and A's key", async () => {
      const filters: Record<string, string> = {
        project_id: w.b.project,
        analysis_id: w.b.analysis,
        schedule_id: w.b.schedule,
        persona_id: w.b.persona,
        conversation_id: w.b.conversation,
        script_id: w.b.script,
      };
      let probed = 0;
      for (const route of V1_ROUTES) {
        if (route.method !== "GET" || route.path.includes(":")) continue;
        const names = Object.keys(
          (route.query as { properties?: Record<string, unknown> } | undefined)?.properties ?? {},
        );
        const ids = names.filter((name) => name.endsWith("_id"));
        if (ids.length === 0) continue;
        const unknown = ids.filter((name) => !(name in filters));
        expect(unknown, `${route.operationId}: a filter with no B id to try`).toEqual([]);
        for (const name of ids) {
          const input: RouteInput = { query: { [name]: filters[name] ?? "" } };
          for (const res of [
            await viaMember(h, w.a.member, w.a.tenant.workspace.id, route, input),
            await h.call(route.operationId, { ...input, key: w.a.tenant.key }),
          ]) {
            const what = `${route.operationId}?${name}=B's`;
            if (res.statusCode === 404) expect(res.json().error.code).toBe("NOT_FOUND");
            else {
              expectStatus(res, 200, what);
              expect(res.json().data, what).toEqual([]);
            }
            expectNothingOf([w.b], res.body, input, what);
            probed++;
          }
        }
      }
      expect(probed).toBeGreaterThanOrEqual(10);
    });

    it("A's webhook endpoint is delivered A's events only, whatever B and C did", async () => {
      const res = await h.call("listWebhookDeliveries", {
        key: w.a.tenant.key,
        params: { id: w.a.webhook },
        query: { limit: 100 },
      });
      expectStatus(res, 200, "A's deliveries");
      expect(res.json().data.length, "A's own events were delivered").toBeGreaterThan(0);
      expectNothingOf([w.b, w.c], res.body, [], "A's deliveries");
      const { rows } = await sql<{
        workspace_id: string;
      }>`select e.workspace_id from webhook_deliveries d join events e on e.id = d.event_id where d.endpoint_id = ${w.a.webhook}`.execute(
        h.deps.db,
      );
      expect(new Set(rows.map((row) => row.workspace_id))).toEqual(new Set([w.a.tenant.workspace.id]));
    });

    it("A's key cannot analyze with B's own engine", async () => {
      const before = await h.count("analyses", w.a.tenant.workspace.id);
      const res = await h.call("analyze", {
        key: w.a.tenant.key,
        body: { project_id: w.a.project, engines: [w.b.engine], prompts: ["best tool?"] },
      });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(await h.count("analyses", w.a.tenant.workspace.id)).toBe(before);
      // B's own key may: the name is B's engine, not a bad one.
      const own = await h.call("analyze", {
        key: w.b.tenant.key,
        body: { project_id: w.b.project, engines: [w.b.engine], prompts: ["best tool?"] },
      });
      expect(own.statusCode, own.body).toBe(202);
    });

    // -- 2. Every dashboard-only route ----------------------------------------------------------

    for (const route of DASHBOARD_ROUTES) {
      const probe = WORKSPACE_PROBES[route.operationId];
      if (!route.path.startsWith("/workspaces/:workspace") || probe === undefined) continue;
      const own = paramNames(route.path).filter((name) => name !== "workspace");
      it(`${route.method} /app/api${route.path}: NOT_FOUND for A's person in B and C${probe.owned ? ", and for B's ids in A's path" : ""}`, async () => {
        const [A, B, C] = clients().map((client) => client.tenant.workspace.id) as [string, string, string];
        const inB = await probe.input(h, w, w.b);
        const inC = await probe.input(h, w, w.c);
        const mixed =
          own.length > 1
            ? {
                ...inB,
                params: { ...inB.params, [own[0] ?? ""]: (await probe.input(h, w, w.a)).params?.[own[0] ?? ""] ?? "" },
              }
            : null;
        const before = { B: await stateOf(h, scoped, B), C: await stateOf(h, scoped, C) };
        const call = (session: Session, workspace: string, input: DashboardInput) =>
          dashboard(h, route.method, dashboardUrl(route.path, { ...input.params, workspace }), {
            cookie: session.cookie,
            ...(input.body === undefined ? {} : { body: input.body }),
          });

        for (const [who, session, workspaceId, input] of doorProbes(inB, inC)) {
          const res = await call(session, workspaceId, input);
          expectStatus(res, 404, who, "NOT_FOUND");
          expectNothingOf([w.b, w.c], res.body, [workspaceId, input], who);
        }
        if (probe.owned) {
          for (const input of mixed === null ? [inB] : [inB, mixed]) {
            for (const [who, session] of [
              ["A's person", w.a.member],
              ["the agency's admin", w.admin],
            ] as const) {
              const res = await call(session, A, input);
              expectStatus(res, 404, `${who} with B's ids in A's path`, "NOT_FOUND");
              expectNothingOf([w.b], res.body, input, `${who} with B's ids in A's path`);
            }
          }
        } else if (route.method === "GET") {
          const res = await call(w.a.member, A, {});
          expectStatus(res, 200, "A's person reading A");
          expectNothingOf([w.b, w.c], res.body, [], "A's person reading A");
        }

        expect(await stateOf(h, scoped, B), "B changed").toEqual(before.B);
        expect(await stateOf(h, scoped, C), "C changed").toEqual(before.C);
        if (probe.noReplay === undefined) {
          expectSuccess(route, await call(w.admin, B, inB), "the agency's admin replaying it in B");
        }
      });
    }

    // -- 2 and 5. Every route of the agency ----------------------------------------------------

    for (const route of DASHBOARD_ROUTES) {
      const probe = AGENCY_PROBES[route.operationId];
      if (!route.path.startsWith("/agencies/:agency") || probe === undefined) continue;
      const further = paramNames(route.path).length > 1;
      it(`${route.method} /app/api${route.path}: NOT_FOUND for A's person and another agency, FORBIDDEN below ${probe.least}`, async () => {
        const input = probe.input(w);
        const call = (session: Session, agency: string) =>
          dashboard(h, route.method, dashboardUrl(route.path, { ...input.params, agency }), {
            cookie: session.cookie,
            ...(input.body === undefined ? {} : { body: input.body }),
          });
        const before = {
          ours: await agencyStateOf(h, scoped, w.agency.id),
          rival: await agencyStateOf(h, scoped, w.rival.agency),
        };
        const outsiders = clients().flatMap((client) => [client.name, client.brand]);

        for (const [who, session] of [
          ["A's person", w.a.member],
          ["the other agency's admin", w.rival.admin],
        ] as const) {
          const res = await call(session, w.agency.id);
          expectStatus(res, 404, who, "NOT_FOUND");
          for (const secret of [w.agency.name, ...outsiders]) expect(res.body, who).not.toContain(secret);
        }
        // This agency's ids in the other agency's own path.
        if (further) {
          const res = await call(w.rival.admin, w.rival.agency);
          expectStatus(res, 404, "this agency's ids in the other agency's path", "NOT_FOUND");
        }
        for (const [role, session] of staff()) {
          if (atLeast(role, probe.least)) continue;
          expectStatus(await call(session, w.agency.id), 403, `the agency's ${role}`, "FORBIDDEN");
        }

        expect(await agencyStateOf(h, scoped, w.agency.id), "this agency changed").toEqual(before.ours);
        expect(await agencyStateOf(h, scoped, w.rival.agency), "the other agency changed").toEqual(before.rival);
        if (route.method === "GET") {
          for (const [role, session] of staff())
            expectStatus(await call(session, w.agency.id), 200, `the agency's ${role}`);
        }
      });
    }

    // -- 4. MCP ---------------------------------------------------------------------------------

    it("MCP with A's key: every tool asked about B's brand, analysis, result, report or change answers nothing of B", async () => {
      const rpc = async (key: string, method: string, params: Record<string, unknown> = {}) => {
        const res = await h.app.inject({
          method: "POST",
          url: "/mcp",
          remoteAddress: randomAddress(),
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2025-06-18",
          },
          payload: { jsonrpc: "2.0", id: 1, method, params },
        });
        expectStatus(res, 200, `MCP ${method}`);
        return res;
      };
      const ids: Record<string, string | null> = {
        project_id: w.b.project,
        analysis_id: w.b.analysis,
        result_id: w.b.result,
        report_id: w.b.report,
        change_id: w.b.change,
        schedule_id: w.b.schedule,
        persona_id: w.b.persona,
        conversation_id: w.b.conversation,
        script_id: w.b.script,
        // Looked up among the brand's own opportunities, and the brand here is B's already.
        opportunity_id: null,
      };
      // Required arguments that are not ids: what a caller would send.
      const extra: Record<string, Record<string, unknown>> = {
        record_change: { title: "Probe" },
        compare_audiences: { by: "persona" },
      };
      const listed = (await rpc(w.a.tenant.key, "tools/list")).json().result.tools as {
        name: string;
        inputSchema: { properties?: Record<string, unknown>; required?: string[] };
        annotations?: { readOnlyHint?: boolean };
      }[];
      expect(listed.length).toBeGreaterThan(10);
      const before = await stateOf(h, scoped, w.b.tenant.workspace.id);
      const replays: { name: string; arguments: Record<string, unknown> }[] = [];
      for (const tool of listed) {
        const names = Object.keys(tool.inputSchema.properties ?? {});
        const args: Record<string, unknown> = { ...extra[tool.name] };
        for (const name of names.filter((n) => n.endsWith("_id"))) {
          expect(name in ids, `${tool.name}: no B id for its argument ${name}`).toBe(true);
          const id = ids[name];
          if (id !== null && id !== undefined) args[name] = id;
        }
        const missing = (tool.inputSchema.required ?? []).filter((name) => !(name in args));
        expect(missing, `${tool.name}: required arguments with no value`).toEqual([]);

        const res = await rpc(w.a.tenant.key, "tools/call", { name: tool.name, arguments: args });
        const result = res.json().result as { isError?: boolean; content: { type: string; text: string }[] };
        const asked = Object.values(args).filter((value) => typeof value === "string" && value.includes("_"));
        expectNothingOf([w.b, w.c], res.body, asked, `MCP ${tool.name} with A's key`);
        if (asked.length === 0) {
          expect(result.isError ?? false, `${tool.name}: ${res.body}`).toBe(false);
          continue;
        }
        if (result.isError === true) {
          const error = JSON.parse(result.content[0]?.text ?? "{}").error as { code: string };
          expect(error.code, `${tool.name}: ${res.body}`).toBe("NOT_FOUND");
        } else {
          // A list filtered by B's ids: empty.
          expect(JSON.parse(result.content[0]?.text ?? "{}").data, `${tool.name}: ${res.body}`).toEqual([]);
        }
        if (tool.annotations?.readOnlyHint === true) replays.push({ name: tool.name, arguments: args });
      }
      expect(await stateOf(h, scoped, w.b.tenant.workspace.id), "B changed").toEqual(before);
      // B's own key, asking the same of each read, gets B's data: the ids above were real ones.
      expect(replays.length).toBeGreaterThan(5);
      for (const replay of replays) {
        const own = (await rpc(w.b.tenant.key, "tools/call", replay)).json().result;
        expect(own.isError ?? false, `${replay.name} with B's key: ${JSON.stringify(own)}`).toBe(false);
      }
    });
  },
  // suggestBrand's fixture and the pitch read a website on 127.0.0.1; staff sign up with workspaces
  // of their own; A's person alone sends some 550 requests within the minute, near the dashboard's
  // 600 a member, and rate limits are not what is tested here.
  { config: { webhookAllowPrivate: true, accounts: { openSignup: true }, rateLimits: false } },
);
