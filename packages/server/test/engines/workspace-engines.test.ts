import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultEngineConfig } from "../../src/services/engines/settings.ts";
import { dashboard, invite, type Session, signUp, uniqueEmail } from "../helpers/dashboard.ts";
import { startFakeChatCompletions, startFakeOpenAIResponses } from "../helpers/fake-vendors/index.ts";
import { type FakeVendor, startFakeVendor } from "../helpers/fake-vendors/server.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";

// Local vendors speaking their real wire formats: OpenAI's Responses API (chatgpt), a plain
// OpenAI-compatible server (a workspace's own engine), and one that refuses every key, saying it back.
const openai = await startFakeOpenAIResponses();
const compatible = await startFakeChatCompletions({ flavour: "plain" });
const refusing = await startKeyEchoingVendor();

/** `401 {"error": {"message": "Incorrect API key provided: <the key>…"}}`: OpenAI's wire format, key unmasked. */
function startKeyEchoingVendor(): Promise<FakeVendor> {
  return startFakeVendor({
    basePath: "/v1",
    serves: (request) => request.method === "POST" && request.path === "/v1/chat/completions",
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
}

afterAll(async () => {
  await openai.stop();
  await compatible.stop();
  await refusing.stop();
});

function engines() {
  const config = defaultEngineConfig();
  // The operator points chatgpt at its vendor but sets no key: only workspaces' own keys answer.
  config.vendors.chatgpt = { ...config.vendors.chatgpt, baseUrl: openai.url };
  return { ...config, maxRetries: 0, timeoutMs: 5_000 };
}

/** A key of no recognisable shape: only knowing it as the workspace's key can scrub it. */
function shapelessKey(label: string): string {
  return `${label}-${Math.random().toString(36).slice(2, 12)}-workspace-secret`;
}

function enginesUrl(session: Session, ...rest: string[]): string {
  return [`/app/api/workspaces/${session.workspaceId}/engines`, ...rest].join("/");
}

async function statusOf(h: Harness, session: Session, name: string) {
  const res = await dashboard(h, "GET", enginesUrl(session), { cookie: session.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { name: string }[]).find((engine) => engine.name === name) as Record<string, unknown>;
}

async function runAnalysis(h: Harness, session: Session, engine: string) {
  const v1 = `/app/api/workspaces/${session.workspaceId}/v1`;
  const project = await dashboard(h, "POST", `${v1}/projects`, {
    cookie: session.cookie,
    body: { name: "Acme CRM", primary_domain: "acmecrm.com", prompts: ["best CRM for a small agency"] },
  });
  expect(project.statusCode, project.body).toBe(201);
  const queued = await dashboard(h, "POST", `${v1}/analyze`, {
    cookie: session.cookie,
    body: { project_id: project.json().id, engines: [engine], samples: 1 },
  });
  expect(queued.statusCode, queued.body).toBe(202);
  const id = queued.json().id as string;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const analysis = (await dashboard(h, "GET", `${v1}/analyses/${id}`, { cookie: session.cookie })).json();
    if (analysis.status === "completed" || analysis.status === "failed") {
      const results = await dashboard(h, "GET", `${v1}/results?analysis_id=${id}`, { cookie: session.cookie });
      return { analysis, results: results.json().data as Record<string, unknown>[] };
    }
    if (Date.now() > deadline) throw new Error(`analysis still ${analysis.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describeEachDialect(
  "engines a workspace connects in Settings",
  (h) => {
    beforeAll(async () => {
      await h.startWorker();
    });

    it("a key set for a built-in engine answers for that workspace only, with its model", async () => {
      const owner = await signUp(h);
      const other = await signUp(h);
      const before = await statusOf(h, owner, "chatgpt");
      expect(before).toMatchObject({ status: "no_key", source: "none", can_run: false, key_hint: null });
      expect(before.reason).toBe(
        "no credentials for chatgpt: connect it in Settings → Engines, or set OPENAI_API_KEY on the server",
      );

      const key = shapelessKey("openai");
      const set = await dashboard(h, "PATCH", enginesUrl(owner, "chatgpt"), {
        cookie: owner.cookie,
        body: { api_key: key, model: "gpt-5" },
      });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.body).not.toContain(key);
      expect(set.json()).toMatchObject({
        status: "ready",
        source: "workspace",
        key_hint: key.slice(-4),
        model: "gpt-5",
        can_run: true,
      });
      const stored = await h.deps.db
        .selectFrom("workspace_engines")
        .selectAll()
        .where("workspace_id", "=", owner.workspaceId)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(stored)).not.toContain(key);

      const answered = openai.requests.length;
      const mine = await runAnalysis(h, owner, "chatgpt");
      expect(mine.analysis.status).toBe("completed");
      expect(mine.results.map((r) => r.status)).toEqual(["succeeded"]);
      const asked = openai.requests.slice(answered);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.headers.authorization).toBe(`Bearer ${key}`);
      expect(asked[0]?.body).toMatchObject({ model: "gpt-5" });

      // The other workspace has no key: its answers fail, saying where to connect one, and the vendor hears nothing.
      expect(await statusOf(h, other, "chatgpt")).toMatchObject({ status: "no_key", source: "none" });
      const theirs = await runAnalysis(h, other, "chatgpt");
      expect(theirs.analysis.status).toBe("failed");
      expect(theirs.results[0]?.error).toMatchObject({ message: expect.stringContaining("Settings → Engines") });
      expect(openai.requests.length).toBe(answered + 1);

      // Removed, the key answers no more.
      const removed = await dashboard(h, "DELETE", enginesUrl(owner, "chatgpt"), { cookie: owner.cookie });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().engine).toMatchObject({ status: "no_key", source: "none", key_hint: null });
    });

    it("a custom OpenAI-compatible engine: added, tested (its answer shown), offered and run", async () => {
      const owner = await signUp(h);
      const key = shapelessKey("local");
      compatible.setAnswer({ text: "I am a local Llama model, answering for your workspace.", citations: [] });
      const created = await dashboard(h, "POST", enginesUrl(owner), {
        cookie: owner.cookie,
        body: {
          name: "house_llm",
          title: "House LLM",
          base_url: `${compatible.url}/v1`,
          model: "llama3.1",
          api_key: key,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.body).not.toContain(key);
      expect(created.json()).toMatchObject({ name: "house_llm", title: "House LLM", custom: true, status: "ready" });

      const tested = await dashboard(h, "POST", enginesUrl(owner, "house_llm", "test"), { cookie: owner.cookie });
      expect(tested.statusCode, tested.body).toBe(200);
      expect(tested.json()).toMatchObject({
        ok: true,
        answer: "I am a local Llama model, answering for your workspace.",
        error: null,
        engine: { status: "ready", source: "workspace" },
      });
      expect(tested.json().engine.tested_at).not.toBeNull();
      expect(compatible.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);

      const listed = await dashboard(h, "GET", enginesUrl(owner), { cookie: owner.cookie });
      const names = (listed.json().data as { name: string; can_run: boolean }[]).map((e) => e.name);
      expect(names).toContain("house_llm");
      // Engines that can run come first: the sandbox and this one before any engine without a key.
      const data = listed.json().data as { name: string; can_run: boolean }[];
      const firstBlocked = data.findIndex((e) => !e.can_run);
      expect(data.slice(firstBlocked).every((e) => !e.can_run)).toBe(true);
      expect(names.indexOf("house_llm")).toBeLessThan(firstBlocked);

      const run = await runAnalysis(h, owner, "house_llm");
      expect(run.analysis.status).toBe("completed");
      expect(run.results[0]).toMatchObject({ engine: "house_llm", status: "succeeded" });

      // Another workspace does not know it.
      const other = await signUp(h);
      expect(await statusOf(h, other, "house_llm")).toBeUndefined();
      const refused = await dashboard(h, "POST", `/app/api/workspaces/${other.workspaceId}/v1/analyze`, {
        cookie: other.cookie,
        body: { project_id: run.analysis.project_id, engines: ["house_llm"] },
      });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    });

    it("a refused key: failing, with the vendor's error scrubbed of the key, until the key changes", async () => {
      const owner = await signUp(h);
      const key = shapelessKey("wrong");
      const created = await dashboard(h, "POST", enginesUrl(owner), {
        cookie: owner.cookie,
        body: { name: "strict_llm", title: "Strict", base_url: refusing.url, model: "m1", api_key: key },
      });
      expect(created.statusCode, created.body).toBe(201);
      const tested = await dashboard(h, "POST", enginesUrl(owner, "strict_llm", "test"), { cookie: owner.cookie });
      expect(tested.statusCode, tested.body).toBe(200);
      expect(tested.body).not.toContain(key);
      const error = tested.json().error as string;
      expect(error).toContain("401");
      expect(error).toContain("Incorrect API key provided: [redacted]");
      expect(tested.json().engine).toMatchObject({ status: "failing", last_error: error, can_run: true });
      expect(await statusOf(h, owner, "strict_llm")).toMatchObject({ status: "failing", last_error: error });
      const row = await h.deps.db
        .selectFrom("workspace_engines")
        .selectAll()
        .where("workspace_id", "=", owner.workspaceId)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(key);

      // A new key clears the verdict: the test said nothing about it.
      const changed = await dashboard(h, "PATCH", enginesUrl(owner, "strict_llm"), {
        cookie: owner.cookie,
        body: { api_key: shapelessKey("next") },
      });
      expect(changed.json()).toMatchObject({ status: "ready", last_error: null, tested_at: null });
    });

    it("refuses bad input with a clear error and changes nothing", async () => {
      const owner = await signUp(h);
      const cases: [string, string, unknown, number, string][] = [
        ["PATCH", enginesUrl(owner, "chatgpt"), { api_key: "short" }, 400, "VALIDATION_ERROR"],
        ["PATCH", enginesUrl(owner, "chatgpt"), { title: "Mine" }, 400, "VALIDATION_ERROR"],
        ["PATCH", enginesUrl(owner, "sandbox"), { api_key: "long-enough-key" }, 400, "VALIDATION_ERROR"],
        ["PATCH", enginesUrl(owner, "no_such"), { api_key: "long-enough-key" }, 404, "NOT_FOUND"],
        [
          "POST",
          enginesUrl(owner),
          { name: "chatgpt", title: "x", base_url: compatible.url, model: "m" },
          409,
          "CONFLICT",
        ],
        [
          "POST",
          enginesUrl(owner),
          { name: "Bad Name", title: "x", base_url: compatible.url, model: "m" },
          400,
          "VALIDATION_ERROR",
        ],
        [
          "POST",
          enginesUrl(owner),
          { name: "ftp_llm", title: "x", base_url: "ftp://example.com", model: "m" },
          400,
          "VALIDATION_ERROR",
        ],
      ];
      for (const [method, url, body, status, code] of cases) {
        const res = await dashboard(h, method, url, { cookie: owner.cookie, body });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}: ${res.body}`).toBe(status);
        expect(res.json().error.code).toBe(code);
      }
      const rows = await h.deps.db
        .selectFrom("workspace_engines")
        .select("name")
        .where("workspace_id", "=", owner.workspaceId)
        .execute();
      expect(rows).toEqual([]);
    });

    it("tests only an engine of the plan, at most 10 times a minute per workspace", async () => {
      const owner = await signUp(h);
      await h.deps.db.updateTable("workspaces").set({ plan: "free" }).where("id", "=", owner.workspaceId).execute();
      const refused = await dashboard(h, "POST", enginesUrl(owner, "claude", "test"), { cookie: owner.cookie });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().error).toMatchObject({ code: "ENGINE_NOT_ALLOWED", details: [{ field: "engine" }] });
      for (let i = 0; i < 10; i++) {
        const tested = await dashboard(h, "POST", enginesUrl(owner, "sandbox", "test"), { cookie: owner.cookie });
        expect(tested.statusCode, tested.body).toBe(200);
      }
      const limited = await dashboard(h, "POST", enginesUrl(owner, "sandbox", "test"), { cookie: owner.cookie });
      expect(limited.statusCode, limited.body).toBe(429);
      expect(limited.json().error.code).toBe("RATE_LIMIT_EXCEEDED");
      expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      // Another workspace has its own ten.
      const other = await signUp(h);
      const theirs = await dashboard(h, "POST", enginesUrl(other, "sandbox", "test"), { cookie: other.cookie });
      expect(theirs.statusCode, theirs.body).toBe(200);
    });

    it("two first saves at once: one row, no error; two creations of one name: one made, one CONFLICT", async () => {
      const owner = await signUp(h);
      const [first, second] = await Promise.all(
        [shapelessKey("one"), shapelessKey("two")].map((api_key) =>
          dashboard(h, "PATCH", enginesUrl(owner, "chatgpt"), { cookie: owner.cookie, body: { api_key } }),
        ),
      );
      expect([first?.statusCode, second?.statusCode], `${first?.body} ${second?.body}`).toEqual([200, 200]);
      const body = { name: "twin_llm", title: "Twin", base_url: `${compatible.url}/v1`, model: "m1" };
      const created = await Promise.all([
        dashboard(h, "POST", enginesUrl(owner), { cookie: owner.cookie, body }),
        dashboard(h, "POST", enginesUrl(owner), { cookie: owner.cookie, body }),
      ]);
      expect(created.map((res) => res.statusCode).sort(), created.map((res) => res.body).join(" ")).toEqual([201, 409]);
      expect(created.find((res) => res.statusCode === 409)?.json().error.code).toBe("CONFLICT");
      const rows = await h.deps.db
        .selectFrom("workspace_engines")
        .select("name")
        .where("workspace_id", "=", owner.workspaceId)
        .orderBy("name")
        .execute();
      expect(rows.map((row) => row.name)).toEqual(["chatgpt", "twin_llm"]);
    });

    it("refuses a model for a built-in engine without the workspace's key, and drops it with the key", async () => {
      const owner = await signUp(h);
      const refused = await dashboard(h, "PATCH", enginesUrl(owner, "chatgpt"), {
        cookie: owner.cookie,
        body: { model: "gpt-5" },
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error).toMatchObject({
        code: "VALIDATION_ERROR",
        details: [{ field: "model", issue: "a model applies with your own key; add the key first" }],
      });
      const count = async () =>
        (
          await h.deps.db
            .selectFrom("workspace_engines")
            .selectAll()
            .where("workspace_id", "=", owner.workspaceId)
            .execute()
        ).length;
      expect(await count()).toBe(0);
      const keyed = await dashboard(h, "PATCH", enginesUrl(owner, "chatgpt"), {
        cookie: owner.cookie,
        body: { api_key: shapelessKey("k"), model: "gpt-5" },
      });
      expect(keyed.json()).toMatchObject({ model: "gpt-5", source: "workspace" });
      const unkeyed = await dashboard(h, "PATCH", enginesUrl(owner, "chatgpt"), {
        cookie: owner.cookie,
        body: { api_key: null },
      });
      expect(unkeyed.statusCode, unkeyed.body).toBe(200);
      expect(unkeyed.json()).toMatchObject({ model: null, key_hint: null, source: "none" });
    });

    it("shows a key's last characters to admins and owners only", async () => {
      const owner = await signUp(h);
      const key = shapelessKey("hint");
      await dashboard(h, "PATCH", enginesUrl(owner, "chatgpt"), { cookie: owner.cookie, body: { api_key: key } });
      const as = async (role: string) => {
        const email = uniqueEmail(role);
        const session = await signUp(h, { email, invitation: await invite(h, owner, email, role) });
        return { ...session, workspaceId: owner.workspaceId };
      };
      for (const [session, hint] of [
        [owner, key.slice(-4)],
        [await as("admin"), key.slice(-4)],
        [await as("member"), null],
        [await as("viewer"), null],
      ] as const) {
        expect(await statusOf(h, session, "chatgpt")).toMatchObject({ source: "workspace", key_hint: hint });
      }
    });
  },
  { config: { engines: engines(), webhookAllowPrivate: true, accounts: { openSignup: true } } },
);
