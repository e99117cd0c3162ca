import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, expect, it } from "vitest";
import { dashboardRoutes } from "../../src/http/dashboard/register.ts";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { defaultEngineConfig } from "../../src/services/engines/settings.ts";
import type { WorkspaceView } from "../../src/services/workspaces/workspaces.ts";
import { dashboard, invite, type Session, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { type FakeVendor, startFakeVendor } from "../helpers/fake-vendors/server.ts";
import { ROUTE_FIXTURES } from "../helpers/fixtures.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";

/** An OpenAI-compatible vendor refusing every key and saying it back in full (OpenAI masks it; careless proxies do not). */
const echoing: FakeVendor = await startFakeVendor({
  basePath: "/v1",
  // OpenAI's Responses API (chatgpt) and the chat completions of any OpenAI-compatible server.
  serves: (request) =>
    request.method === "POST" && (request.path === "/v1/responses" || request.path === "/v1/chat/completions"),
  notFound: () => ({ status: 404, body: { error: { message: "not found" } } }),
  rateLimitHeaders: () => ({}),
  errorBody: () => ({ error: { message: "error" } }),
  reply: ({ request }) => ({
    status: 401,
    body: {
      error: {
        message: `Incorrect API key provided: ${String(request.headers.authorization).replace(/^Bearer /, "")}.`,
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    },
  }),
});

afterAll(() => echoing.stop());

function engines(workspaceKeys = true) {
  const config = defaultEngineConfig();
  config.vendors.chatgpt = { ...config.vendors.chatgpt, baseUrl: echoing.url };
  return { ...config, maxRetries: 0, timeoutMs: 5_000, workspaceKeys };
}

/** Keys of no recognisable shape: only knowing them as the workspace's keys can keep them out. */
function shapelessKey(label: string): string {
  return `${label}-${Math.random().toString(36).slice(2, 12)}-workspace-secret`;
}

function enginesUrl(session: Session, ...rest: string[]): string {
  return [`/app/api/workspaces/${session.workspaceId}/engines`, ...rest].join("/");
}

/** Everything the runtime and the HTTP app log, at every level. */
const logged: string[] = [];
const capture = () =>
  pino(
    { level: "trace" },
    new Writable({
      write(chunk, _encoding, done) {
        logged.push(String(chunk));
        done();
      },
    }),
  );

async function rowsOf(h: Harness, workspaceId: string) {
  return h.deps.db.selectFrom("workspace_engines").selectAll().where("workspace_id", "=", workspaceId).execute();
}

describeEachDialect(
  "workspace engine keys",
  (h) => {
    it("cannot be read or set by a member or a viewer", async () => {
      const owner = await signUp(h);
      const key = shapelessKey("owner");
      await dashboard(h, "PATCH", enginesUrl(owner, "chatgpt"), { cookie: owner.cookie, body: { api_key: key } });
      const before = JSON.stringify(await rowsOf(h, owner.workspaceId));
      for (const role of ["member", "viewer"]) {
        const email = uniqueEmail(role);
        const token = await invite(h, owner, email, role);
        const joined = await signUp(h, { email, invitation: token });
        const as = { ...joined, workspaceId: owner.workspaceId };
        const listed = await dashboard(h, "GET", enginesUrl(as), { cookie: as.cookie });
        expect(listed.statusCode, listed.body).toBe(200);
        expect(listed.body).not.toContain(key);
        const attempts: [string, string, unknown][] = [
          ["PATCH", enginesUrl(as, "chatgpt"), { api_key: shapelessKey(role) }],
          ["PATCH", enginesUrl(as, "chatgpt"), { api_key: null }],
          ["DELETE", enginesUrl(as, "chatgpt"), undefined],
          ["POST", enginesUrl(as), { name: "sneaky", title: "S", base_url: echoing.url, model: "m" }],
          ["POST", enginesUrl(as, "chatgpt", "test"), undefined],
        ];
        for (const [method, url, body] of attempts) {
          const res = await dashboard(h, method, url, { cookie: as.cookie, body });
          expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
          expect(res.json().error.code).toBe("FORBIDDEN");
          expect(res.body).not.toContain(key);
        }
      }
      expect(JSON.stringify(await rowsOf(h, owner.workspaceId))).toBe(before);
    });

    it("refuses a base URL aimed at a private address, at saving and at connecting", async () => {
      const owner = await signUp(h);
      const port = new URL(echoing.url).port;
      for (const base_url of [
        `http://127.0.0.1:${port}/v1`,
        "http://10.1.2.3/v1",
        "http://169.254.169.254/latest",
        `http://[::ffff:127.0.0.1]:${port}/v1`,
        `http://localhost:${port}/v1`,
      ]) {
        const res = await dashboard(h, "POST", enginesUrl(owner), {
          cookie: owner.cookie,
          body: { name: "inside", title: "Inside", base_url, model: "m" },
        });
        expect(res.statusCode, `${base_url}: ${res.body}`).toBe(400);
        expect(res.json().error.details[0].field).toBe("base_url");
      }
      expect(await rowsOf(h, owner.workspaceId)).toEqual([]);

      // A name that resolved to a public address when saved, and to this machine when asked (DNS rebinding).
      const resolver = h.deps.webhookTargets.resolver;
      try {
        h.deps.webhookTargets.resolver = { resolve: async () => ["93.184.216.34"] };
        const created = await dashboard(h, "POST", enginesUrl(owner), {
          cookie: owner.cookie,
          body: { name: "rebinding", title: "R", base_url: `http://vendor.example:${port}/v1`, model: "m" },
        });
        expect(created.statusCode, created.body).toBe(201);
        const asked = echoing.requests.length;
        h.deps.webhookTargets.resolver = { resolve: async () => ["127.0.0.1"] };
        const tested = await dashboard(h, "POST", enginesUrl(owner, "rebinding", "test"), { cookie: owner.cookie });
        expect(tested.json()).toMatchObject({ ok: false, engine: { status: "failing" } });
        expect(tested.json().error).toContain("not a public address");
        expect(echoing.requests.length).toBe(asked);
      } finally {
        h.deps.webhookTargets.resolver = resolver;
      }
    });
  },
  { config: { engines: engines(), accounts: { openSignup: true } } },
);

describeEachDialect(
  "workspace engine keys, with private addresses allowed (local vendors)",
  (h) => {
    it("are never returned by any route nor written to the log", async () => {
      const owner = await signUp(h);
      const builtIn = shapelessKey("openai");
      const custom = shapelessKey("local");
      const answers: { route: string; body: string }[] = [];
      const record = (route: string, res: { body: string }) => answers.push({ route, body: res.body });

      record(
        "updateEngine",
        await dashboard(h, "PATCH", enginesUrl(owner, "chatgpt"), { cookie: owner.cookie, body: { api_key: builtIn } }),
      );
      record(
        "createEngine",
        await dashboard(h, "POST", enginesUrl(owner), {
          cookie: owner.cookie,
          body: { name: "echo_llm", title: "Echo", base_url: echoing.url, model: "m1", api_key: custom },
        }),
      );
      // Both vendors say the key back: the tests and a run must scrub it before it is stored, served or logged.
      for (const name of ["chatgpt", "echo_llm"]) {
        const tested = await dashboard(h, "POST", enginesUrl(owner, name, "test"), { cookie: owner.cookie });
        expect(tested.json().ok).toBe(false);
        record("testEngine", tested);
      }
      const v1 = `/app/api/workspaces/${owner.workspaceId}/v1`;
      const project = await dashboard(h, "POST", `${v1}/projects`, {
        cookie: owner.cookie,
        body: { name: "Acme", primary_domain: "acme.example.com", prompts: ["best tool?"] },
      });
      const worker = await h.startWorker();
      const analysis = await dashboard(h, "POST", `${v1}/analyze`, {
        cookie: owner.cookie,
        body: { project_id: project.json().id, engines: ["chatgpt", "echo_llm"], samples: 1 },
      });
      expect(analysis.statusCode, analysis.body).toBe(202);
      const deadline = Date.now() + 15_000;
      while (
        (await dashboard(h, "GET", `${v1}/analyses/${analysis.json().id}`, { cookie: owner.cookie })).json().status !==
        "failed"
      ) {
        if (Date.now() > deadline) throw new Error("the analysis did not end");
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await worker.stop(1_000);

      // Every route of API v1, with a request its fixture makes valid, under this workspace's key.
      const key = await h.key(owner.workspaceId);
      const tenant = { workspace: { id: owner.workspaceId } as WorkspaceView, key, authorization: `Bearer ${key}` };
      for (const route of V1_ROUTES) {
        const fixture = ROUTE_FIXTURES[route.operationId];
        if (fixture === undefined) continue;
        record(route.operationId, await h.call(route.operationId, { ...(await fixture(h, tenant)), key }));
      }
      // Every dashboard route reading this workspace.
      for (const route of dashboardRoutes(h.deps)) {
        if (route.method !== "GET" || !/^\/workspaces\/:workspace(\/[a-z-]+)*$/.test(route.path)) continue;
        const url = `/app/api${route.path.replace(":workspace", owner.workspaceId)}`;
        record(route.operationId, await dashboard(h, "GET", url, { cookie: owner.cookie }));
      }
      record("getMe", await dashboard(h, "GET", "/app/api/me", { cookie: owner.cookie }));
      record("removeEngine", await dashboard(h, "DELETE", enginesUrl(owner, "echo_llm"), { cookie: owner.cookie }));

      const scanned = new Set(answers.map((a) => a.route));
      expect(scanned).toContain("listEngineStatuses");
      expect(scanned).toContain("listResults");
      expect(scanned.size).toBeGreaterThan(40);
      for (const secret of [builtIn, custom]) {
        for (const { route, body } of answers) expect(body, `${route} returned a key`).not.toContain(secret);
        expect(logged.join("\n")).not.toContain(secret);
        expect(JSON.stringify(await rowsOf(h, owner.workspaceId))).not.toContain(secret);
      }
      // The vendors did hear the keys, and the scrubbed errors say so without them.
      expect(echoing.requests.map((r) => r.headers.authorization)).toContain(`Bearer ${custom}`);
      const tests = answers.filter((a) => a.route === "testEngine");
      expect(tests).toHaveLength(2);
      for (const test of tests) expect(test.body).toContain("Incorrect API key provided: [redacted]");
      expect(echoing.requests.map((r) => r.headers.authorization)).toContain(`Bearer ${builtIn}`);
      expect(logged.length).toBeGreaterThan(0);
    });

    it("accept a base URL on this machine when the operator allows private addresses", async () => {
      const owner = await signUp(h);
      const res = await dashboard(h, "POST", enginesUrl(owner), {
        cookie: owner.cookie,
        body: { name: "on_host", title: "On host", base_url: echoing.url, model: "m" },
      });
      expect(res.statusCode, res.body).toBe(201);
    });
  },
  { config: { engines: engines(), webhookAllowPrivate: true, accounts: { openSignup: true } }, logger: capture },
);

describeEachDialect(
  "workspace engine keys, when the operator forbids them (SIGHTLINE_WORKSPACE_ENGINE_KEYS=false)",
  (h) => {
    it("refuses setting keys and endpoints, and does not use keys stored before", async () => {
      const owner = await signUp(h);
      const refused: [string, string, unknown][] = [
        ["PATCH", enginesUrl(owner, "chatgpt"), { api_key: shapelessKey("no") }],
        ["PATCH", enginesUrl(owner, "chatgpt"), { model: "gpt-5" }],
        ["POST", enginesUrl(owner), { name: "mine", title: "Mine", base_url: "https://vendor.example/v1", model: "m" }],
      ];
      for (const [method, url, body] of refused) {
        const res = await dashboard(h, method, url, { cookie: owner.cookie, body });
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().error.code).toBe("FORBIDDEN");
        expect(res.json().error.message).toContain("SIGHTLINE_WORKSPACE_ENGINE_KEYS");
      }
      expect(await rowsOf(h, owner.workspaceId)).toEqual([]);

      // A key saved while the operator allowed it stays stored, unused.
      const now = new Date().toISOString();
      await h.deps.db
        .insertInto("workspace_engines")
        .values({
          workspace_id: owner.workspaceId,
          name: "chatgpt",
          custom: false,
          title: null,
          api_key: h.deps.secrets.encrypt(shapelessKey("earlier")),
          key_hint: "1234",
          model: null,
          base_url: null,
          status: "untested",
          last_error: null,
          tested_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const listed = await dashboard(h, "GET", enginesUrl(owner), { cookie: owner.cookie });
      expect(listed.json().workspace_keys).toBe(false);
      const chatgpt = (listed.json().data as { name: string }[]).find((e) => e.name === "chatgpt");
      expect(chatgpt).toMatchObject({
        status: "no_key",
        source: "none",
        can_run: false,
        reason: "no credentials for chatgpt are configured on this server (set OPENAI_API_KEY)",
      });
      // Taking a key away stays possible.
      const removed = await dashboard(h, "PATCH", enginesUrl(owner, "chatgpt"), {
        cookie: owner.cookie,
        body: { api_key: null },
      });
      expect(removed.statusCode, removed.body).toBe(200);
    });
  },
  { config: { engines: engines(false), accounts: { openSignup: true } } },
);
