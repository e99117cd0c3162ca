import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { PUBLIC_ROUTE_LIMITS } from "../../src/http/address-limits.ts";
import { buildHttpApp } from "../../src/http/app.ts";
import { SHARED_REPORT_LIMITS } from "../../src/http/shared-reports.ts";
import { isPublicAddress } from "../../src/lib/addresses.ts";
import { isSetupCode, setupCode } from "../../src/services/accounts/setup-code.ts";
import { HttpTransport } from "../../src/services/webhooks/transport.ts";
import {
  dashboard,
  invite,
  ORIGIN,
  PASSWORD,
  type Session,
  signIn,
  signUp,
  uniqueEmail,
} from "../helpers/dashboard.ts";
import { describeEachDialect, type Harness, randomAddress, TEST_SECRET_KEY } from "../helpers/harness.ts";
import { runCli } from "../helpers/processes.ts";
import { Receiver } from "../helpers/receiver.ts";
import { TEST_REDIS_URL, uniqueRedisPrefix } from "../helpers/redis.ts";

/**
 * The second round of outside probes (issue 21), one block per finding. Each of these failed on
 * the code before the fixes: the rebinding sign-up answered 201, no setup code was asked for, 60
 * parallel wrong passwords were all checked, `[::127.0.0.1]` and port 0 were accepted, the shared
 * route had no limit, `/docs` had no policy, a viewer saw share links, and a password change left
 * the other sessions alive. (Prototype-named keys: prototype-keys.test.ts.)
 */

const signupBody = (extra: Record<string, unknown> = {}) => ({
  name: "First",
  email: uniqueEmail("first"),
  password: PASSWORD,
  workspace_name: "First",
  ...extra,
});

async function userCount(h: Harness): Promise<number> {
  return (await h.deps.db.selectFrom("users").select("id").execute()).length;
}

describeEachDialect("a fresh installation reached through another host name (DNS rebinding)", (h) => {
  it("refuses the first sign-up, setup code and all, and every other request for that host", async () => {
    const rebinding = await h.app.inject({
      method: "POST",
      url: "/app/api/signup",
      remoteAddress: randomAddress(),
      headers: {
        host: "rebind.example:8080",
        origin: "http://rebind.example:8080",
        "content-type": "application/json",
      },
      payload: JSON.stringify(signupBody({ setup_code: h.deps.setupCode })),
    });
    expect(rebinding.statusCode, rebinding.body).toBe(400);
    expect(rebinding.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "Host", issue: "is not a host name this server answers to" }],
    });
    expect(rebinding.json().error.message).toContain("SIGHTLINE_ALLOWED_HOSTS");
    expect(await userCount(h)).toBe(0);
    for (const url of ["/", "/setup", "/app/api/setup", "/v1/projects", "/docs", "/v1/openapi.json", "/mcp"]) {
      const res = await h.app.inject({ method: "GET", url, headers: { host: "rebind.example" } });
      expect(res.statusCode, url).toBe(400);
    }
    // Health checks answer under any name.
    expect(
      (await h.app.inject({ method: "GET", url: "/healthz", headers: { host: "10.1.2.3:8080" } })).statusCode,
    ).toBe(200);
  });

  it("refuses a change from a session whose request names another host, or comes from another port", async () => {
    const owner = await signUp(h);
    const keys = `/app/api/workspaces/${owner.workspaceId}/api-keys`;
    const body = { name: "stolen", scopes: ["read"] };
    const evil = await dashboard(h, "POST", keys, {
      cookie: owner.cookie,
      origin: "http://evil.example",
      headers: { host: "evil.example" },
      body,
    });
    expect(evil.statusCode, evil.body).toBe(400);
    // Another server on this machine is another origin, though the browser sends it the cookie.
    const otherPort = await dashboard(h, "POST", keys, {
      cookie: owner.cookie,
      origin: "http://localhost:9999",
      headers: { host: "localhost:8080" },
      body,
    });
    expect(otherPort.statusCode, otherPort.body).toBe(403);
    expect(await h.count("api_keys", owner.workspaceId)).toBe(0);
    // The address the browser used, when this server answers to it (its public URL is loopback).
    const direct = await dashboard(h, "POST", keys, {
      cookie: owner.cookie,
      origin: "http://127.0.0.1:8080",
      headers: { host: "127.0.0.1:8080" },
      body: { name: "laptop", scopes: ["read"] },
    });
    expect(direct.statusCode, direct.body).toBe(201);
    expect(ORIGIN).toBe("http://localhost:8080");
  });
});

describeEachDialect(
  "a server with a public name",
  (h) => {
    it("answers to its public name and the listed ones only, loopback names included", async () => {
      const statusFor = async (host: string) =>
        (await h.app.inject({ method: "GET", url: "/app/api/setup", headers: { host } })).statusCode;
      expect(await statusFor("sightline.example.com")).toBe(200);
      expect(await statusFor("SIGHTLINE.example.com.")).toBe(200);
      expect(await statusFor("sightline.internal")).toBe(200);
      expect(await statusFor("10.0.0.5:8080")).toBe(200);
      expect(await statusFor("10.0.0.5:9090")).toBe(400);
      expect(await statusFor("localhost:8080")).toBe(400);
      expect(await statusFor("127.0.0.1:8080")).toBe(400);
      expect(await statusFor("user@sightline.example.com")).toBe(400);
    });

    it("takes changes from its public origin, also through a proxy that rewrote Host", async () => {
      const res = await h.app.inject({
        method: "POST",
        url: "/app/api/signup",
        remoteAddress: randomAddress(),
        headers: {
          host: "sightline.internal",
          origin: "https://sightline.example.com",
          "content-type": "application/json",
        },
        payload: JSON.stringify(signupBody({ setup_code: h.deps.setupCode })),
      });
      expect(res.statusCode, res.body).toBe(201);
    });
  },
  {
    config: {
      accounts: { publicUrl: "https://sightline.example.com", allowedHosts: ["sightline.internal", "10.0.0.5:8080"] },
    },
  },
);

describeEachDialect("the first account", (h) => {
  const attempt = (setup_code?: string) =>
    dashboard(h, "POST", "/app/api/signup", {
      body: signupBody(setup_code === undefined ? {} : { setup_code }),
    });

  it("needs the setup code the server printed; nobody else can claim the installation", async () => {
    const missing = await attempt();
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0]).toMatchObject({ field: "setup_code" });
    expect(missing.json().error.details[0].issue).toContain("setup-code");
    const wrong = await attempt("ABCD-EFGH-JKMN-PQRS");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details[0].issue).toContain("is not this server's setup code");
    expect(await userCount(h)).toBe(0);
    // As typed off a console: lower case, without its dashes.
    const typed = await attempt(h.deps.setupCode.toLowerCase().replaceAll("-", " "));
    expect(typed.statusCode, typed.body).toBe(201);
    expect(await userCount(h)).toBe(1);
  });

  it("is the code derived from the server's secret key, which the CLI prints too", async () => {
    expect(h.deps.setupCode).toBe(setupCode(TEST_SECRET_KEY));
    expect(h.deps.setupCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(setupCode(Buffer.alloc(32, 8))).not.toBe(h.deps.setupCode);
    expect(isSetupCode(h.deps.setupCode, h.deps.setupCode.replaceAll("0", "O"))).toBe(true);
    expect(isSetupCode(h.deps.setupCode, undefined)).toBe(false);
    const env = { DATABASE_URL: h.database.url, SIGHTLINE_SECRET_KEY: TEST_SECRET_KEY.toString("base64") };
    // The first account exists by now (the test above ran first in this database, or not: both answers are checked).
    const printed = await runCli(["setup-code", "--json"], env);
    expect(printed.code, printed.stderr).toBe(0);
    const answer = JSON.parse(printed.stdout) as { needs_setup: boolean; setup_code: string | null };
    expect(answer.setup_code).toBe(answer.needs_setup ? h.deps.setupCode : null);
  });
});

describe("the setup code on a database nobody signed up to", () => {
  describeEachDialect("CLI", (h) => {
    it("prints the server's code until the first account exists", async () => {
      const env = { DATABASE_URL: h.database.url, SIGHTLINE_SECRET_KEY: TEST_SECRET_KEY.toString("base64") };
      const before = await runCli(["setup-code", "--quiet"], env);
      expect(before.code, before.stderr).toBe(0);
      expect(before.stdout.trim()).toBe(h.deps.setupCode);
      await signUp(h);
      const after = await runCli(["setup-code"], env);
      expect(after.code).toBe(0);
      expect(after.stdout).toContain("Sightline is set up");
      expect(after.stdout).not.toContain(h.deps.setupCode);
    });
  });
});

describeEachDialect(
  "sign-in lockouts",
  (h) => {
    it("check at most ten passwords of one account however many arrive at once, from six addresses", async () => {
      const email = uniqueEmail();
      await signUp(h, { email });
      const addresses = Array.from({ length: 6 }, randomAddress);
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => signIn(h, email, "a wrong password!", addresses[i % 6])),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
      expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(50);
      // The account stays locked for the window, even for its owner's right password.
      expect((await signIn(h, email, PASSWORD, randomAddress())).statusCode).toBe(429);
    });

    it("give an attempt back when it succeeds, so that a user who signs in often is never locked out", async () => {
      const email = uniqueEmail();
      await signUp(h, { email });
      const address = randomAddress();
      for (let i = 0; i < 15; i++) expect((await signIn(h, email, PASSWORD, address)).statusCode).toBe(200);
      for (let i = 0; i < 10; i++) expect((await signIn(h, email, "a wrong password!", address)).statusCode).toBe(401);
      expect((await signIn(h, email, PASSWORD, address)).statusCode).toBe(429);
    });
  },
  { config: { accounts: { openSignup: true } } },
);

describeEachDialect("sign-in lockouts shared through Redis", (h) => {
  const instances: { runtime: Runtime; app: FastifyInstance }[] = [];
  beforeAll(async () => {
    const prefix = uniqueRedisPrefix();
    const silent = pino({ level: "silent" });
    // One after the other: two SQLite connections of one process must not migrate at once.
    for (let i = 0; i < 2; i++) {
      const runtime = await createRuntime(
        {
          database: h.database.config,
          redisUrl: TEST_REDIS_URL,
          secretKeys: [TEST_SECRET_KEY],
          accounts: { openSignup: true },
        },
        silent,
        { rateLimitKeyPrefix: prefix },
      );
      const app = await buildHttpApp(runtime.deps, {
        publicUrl: "http://localhost:8080",
        bodyLimitBytes: 1 << 20,
        logger: silent,
      });
      instances.push({ runtime, app });
    }
  });
  afterAll(async () => {
    for (const { app, runtime } of instances) {
      await app.close();
      await runtime.close();
    }
  });

  it("count one account's attempts across processes: at most ten checked in all", async () => {
    const email = uniqueEmail();
    await signUp(h, { email });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (instances[i % 2]?.app ?? expect.fail("no instance")).inject({
          method: "POST",
          url: "/app/api/auth/sign-in/email",
          remoteAddress: randomAddress(),
          headers: { origin: ORIGIN, "content-type": "application/json" },
          payload: JSON.stringify({ email, password: "a wrong password!" }),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(50);
  });
});

describe("addresses that embed an IPv4 address, and port 0", () => {
  it("judges an IPv6 address by every IPv4 address it carries", () => {
    for (const address of [
      "::127.0.0.1",
      "[::7f00:1]",
      "::10.0.0.1",
      "::ffff:0:7f00:1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b:1::808:808",
      "2002:a00:1::",
      "2001:0:808:808:0:0:80ff:fffe", // Teredo: server 8.8.8.8, client 127.0.0.1
      "2001:0:a00:1:0:0:f7f7:f7f7", // Teredo: server 10.0.0.1
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ["::8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2001:0:808:808:0:0:f7f7:f7f7"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it("refuses them at delivery, without connecting", async () => {
    const receiver = await new Receiver().start();
    try {
      const port = new URL(receiver.url).port;
      const transport = new HttpTransport({
        timeoutMs: 2_000,
        allowPrivate: false,
        resolver: { resolve: async () => ["93.184.216.34"] },
      });
      for (const url of [
        `http://[::127.0.0.1]:${port}/x`,
        `http://[::ffff:0:7f00:1]:${port}/x`,
        "http://public.example.test:0/x",
      ]) {
        const result = await transport.send({ url, headers: {}, body: "{}" });
        expect(result.error, url).toMatch(/^refused/);
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.stop();
    }
  });
});

describeEachDialect("webhook and Slack targets that embed a private IPv4 address, or use port 0", (h) => {
  it("are refused when a subscription or an alert rule is created", async () => {
    h.deps.webhookTargets.resolver = { resolve: async () => ["93.184.216.34"] };
    const t = await h.tenant("agency");
    for (const url of [
      "http://[::127.0.0.1]/hook",
      "http://[::7f00:1]:8080/hook",
      "https://[64:ff9b::a9fe:a9fe]/latest/meta-data",
      "https://[2002:7f00:1::]/hook",
      "https://hooks.example.com:0/hook",
    ]) {
      const res = await h.call("createWebhook", { key: t.key, body: { url, events: ["project.created"] } });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().error.details[0].field).toBe("url");
    }
    expect(await h.count("webhook_endpoints", t.workspace.id)).toBe(0);
    const project = await h.call("createProject", {
      key: t.key,
      body: { name: "Acme", primary_domain: "acme.example.com", prompts: ["best CRM?"] },
    });
    for (const slack of ["https://[::127.0.0.1]/services/T1/B1/x", "https://hooks.slack.com:0/services/T1/B1/x"]) {
      const res = await h.call("createMonitoring", {
        key: t.key,
        body: {
          project_id: project.json().id,
          schedule: { every: "day" },
          alert_rules: [{ type: "visibility_drop", points: 30, channels: { slack } }],
        },
      });
      expect(res.statusCode, `${slack}: ${res.body}`).toBe(400);
    }
    expect(await h.count("monitoring_schedules", t.workspace.id)).toBe(0);
  });
});

describeEachDialect("the shared-report route", (h) => {
  it("answers 429 past its limit per address, forged tokens counted, and keeps answering others", async () => {
    const address = randomAddress();
    const forged = (from: string) =>
      h.app.inject({
        method: "GET",
        url: `/shared/reports/rsh_${"a".repeat(24)}.${"b".repeat(43)}`,
        remoteAddress: from,
      });
    const statuses: number[] = [];
    for (let i = 0; i <= SHARED_REPORT_LIMITS.perAddressPerMinute; i++)
      statuses.push((await forged(address)).statusCode);
    expect(statuses.slice(0, -1).every((status) => status === 404)).toBe(true);
    const refused = await forged(address);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["content-type"]).toContain("text/html");
    expect(refused.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect((await forged(randomAddress())).statusCode).toBe(404);
  });

  it("answers 429 past its limit per link, from however many addresses", async () => {
    await h.startWorker();
    const t = await h.tenant("agency");
    const project = await h.call("createProject", {
      key: t.key,
      body: { name: "Acme", primary_domain: "acme.example.com", prompts: ["best CRM for agencies?"] },
    });
    const analysis = await h.call("analyze", {
      key: t.key,
      body: { project_id: project.json().id, engines: ["sandbox"], wait: 30 },
    });
    expect(analysis.statusCode, analysis.body).toBe(200);
    const report = (await h.call("listReports", { key: t.key, query: { project_id: project.json().id } })).json()
      .data[0];
    const share = await h.call("createReportShare", { key: t.key, params: { id: report.id } });
    const path = new URL(share.json().url).pathname;
    let served = 0;
    let last = 0;
    for (let i = 0; i <= SHARED_REPORT_LIMITS.perLinkPerMinute; i++) {
      last = (await h.app.inject({ method: "GET", url: path, remoteAddress: randomAddress() })).statusCode;
      if (last === 200) served++;
    }
    expect(served).toBe(SHARED_REPORT_LIMITS.perLinkPerMinute);
    expect(last).toBe(429);
  });
});

describeEachDialect(
  "the other public routes",
  (h) => {
    it("limit sign-ups per address, refused ones included", async () => {
      const address = randomAddress();
      const statuses: number[] = [];
      for (let i = 0; i <= PUBLIC_ROUTE_LIMITS.signUpsPerAddressPer10Minutes; i++) {
        const res = await dashboard(h, "POST", "/app/api/signup", {
          remoteAddress: address,
          // Every other one is malformed: a refused sign-up counts as much as an account.
          body: i % 2 === 0 ? signupBody({ setup_code: h.deps.setupCode }) : { name: "" },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, -1).every((status) => status === 201 || status === 400)).toBe(true);
      const refused = await dashboard(h, "POST", "/app/api/signup", { remoteAddress: address, body: signupBody() });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe("RATE_LIMIT_EXCEEDED");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      const elsewhere = await dashboard(h, "POST", "/app/api/signup", { body: signupBody() });
      expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    });

    it("limit anonymous requests and e-mail links per address", async () => {
      const address = randomAddress();
      for (const url of ["/app/api/setup", "/app/l/forged"]) {
        const from = randomAddress();
        let last = 0;
        for (let i = 0; i <= PUBLIC_ROUTE_LIMITS.perAddressPerMinute; i++) {
          last = (await h.app.inject({ method: "GET", url, remoteAddress: from })).statusCode;
        }
        expect(last, url).toBe(429);
      }
      // A signed-in member's calls of the same public route are not counted against the address.
      const member = await signUp(h);
      for (let i = 0; i <= PUBLIC_ROUTE_LIMITS.perAddressPerMinute; i++) {
        const res = await dashboard(h, "GET", "/app/api/setup", { cookie: member.cookie, remoteAddress: address });
        expect(res.statusCode).toBe(200);
      }
    });
  },
  { config: { accounts: { openSignup: true } } },
);

describeEachDialect(
  "pages, names, share links and password changes",
  (h) => {
    let owner: Session;
    let reportId: string;
    beforeAll(async () => {
      owner = await signUp(h);
    });

    it("no page can be framed; the API reference has a policy", async () => {
      const docs = await h.app.inject({ method: "GET", url: "/docs" });
      expect(docs.statusCode).toBe(200);
      expect(docs.headers["content-security-policy"]).toContain("default-src 'none'");
      for (const url of ["/", "/docs", "/shared/reports/nothing", "/app/unsubscribe/nothing", "/app/l/nothing"]) {
        const res = await h.app.inject({ method: "GET", url });
        expect(res.headers["content-type"], url).toContain("text/html");
        expect(res.headers["content-security-policy"], url).toContain("frame-ancestors 'none'");
        expect(res.headers["x-frame-options"], url).toBe("DENY");
      }
    });

    it("refuses invisible and direction-changing characters in names and prompts, keeps the scripts that join", async () => {
      const projects = `/app/api/workspaces/${owner.workspaceId}/v1/projects`;
      const create = (body: Record<string, unknown>) =>
        dashboard(h, "POST", projects, {
          cookie: owner.cookie,
          body: { primary_domain: "acme.example.com", ...body },
        });
      const spoofs: [Record<string, unknown>, string][] = [
        [{ name: "\u202Eemca" }, "name"],
        [{ name: "Ac\u200Bme" }, "name"],
        [{ name: "Ac\u200Dme" }, "name"],
        [{ name: "Acme\u2066" }, "name"],
        [{ name: "Acme", competitors: [{ name: "Hub\u00ADSpot" }] }, "competitors[0].name"],
        [{ name: "Acme", aliases: ["\uFEFFAcme"] }, "aliases[0]"],
        [{ name: "Acme", prompts: ["best crm\u200E for agencies"] }, "prompts[0]"],
        [{ name: "Acme", prompts: ["best crm\u0007"] }, "prompts[0]"],
      ];
      for (const [body, field] of spoofs) {
        const res = await create(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.details[0].field).toBe(field);
        expect(res.json().error.details[0].issue).toMatch(
          /invisible or direction-changing characters \(U\+[0-9A-F]{4}/,
        );
      }
      const workspace = await dashboard(h, "PATCH", `/app/api/workspaces/${owner.workspaceId}`, {
        cookie: owner.cookie,
        body: { name: "Acme\u202E" },
      });
      expect(workspace.statusCode).toBe(400);
      expect(await h.count("projects", owner.workspaceId)).toBe(0);
      // Persian with its non-joiner, an emoji sequence, Hindi with its joiner: ordinary text.
      const fine = await create({
        name: "Acme 👩‍💻",
        prompts: ["بهترین نرم‌افزار مدیریت مشتری کدام است؟", "सबसे अच्छा क्‍रम कौन सा है?"],
      });
      expect(fine.statusCode, fine.body).toBe(201);
      // Through the API key's door and MCP's alike (one guard for every request).
      const t = await h.tenant();
      const viaKey = await h.call("createProject", {
        key: t.key,
        body: { name: "\u202Eemca", primary_domain: "acme.example.com" },
      });
      expect(viaKey.statusCode).toBe(400);
    });

    it("shows share links only to members who can create them", async () => {
      await h.startWorker();
      const projects = `/app/api/workspaces/${owner.workspaceId}/v1`;
      const project = await dashboard(h, "POST", `${projects}/projects`, {
        cookie: owner.cookie,
        body: { name: "Globex", primary_domain: "globex.example.com", prompts: ["best CRM?"] },
      });
      const analysis = await dashboard(h, "POST", `${projects}/analyze`, {
        cookie: owner.cookie,
        body: { project_id: project.json().id, engines: ["sandbox"], wait: 30 },
      });
      expect(analysis.statusCode, analysis.body).toBe(200);
      reportId = (
        await dashboard(h, "GET", `${projects}/reports?project_id=${project.json().id}`, { cookie: owner.cookie })
      ).json().data[0].id;
      const created = await dashboard(h, "POST", `${projects}/reports/${reportId}/shares`, {
        cookie: owner.cookie,
        body: {},
      });
      expect(created.statusCode, created.body).toBe(201);
      const viewerEmail = uniqueEmail("viewer");
      const token = await invite(h, owner, viewerEmail, "viewer");
      const viewer = await signUp(h, { email: viewerEmail, invitation: token });
      const asViewer = await dashboard(h, "GET", `${projects}/reports/${reportId}/shares`, { cookie: viewer.cookie });
      expect(asViewer.statusCode).toBe(200);
      expect(asViewer.json().data).toHaveLength(1);
      expect(asViewer.json().data[0]).toMatchObject({ url: null, active: true });
      const asOwner = await dashboard(h, "GET", `${projects}/reports/${reportId}/shares`, { cookie: owner.cookie });
      expect(asOwner.json().data[0].url).toBe(created.json().url);
      // A read-only key likewise; a key that may create links sees them.
      const readKey = await h.key(owner.workspaceId, ["read"]);
      const reportsKey = await h.key(owner.workspaceId, ["reports"]);
      const byRead = await h.call("listReportShares", { key: readKey, params: { id: reportId } });
      expect(byRead.json().data[0].url).toBeNull();
      const byReports = await h.call("listReportShares", { key: reportsKey, params: { id: reportId } });
      expect(byReports.json().data[0].url).toBe(created.json().url);
    });

    it("ends the other sessions whenever a password changes", async () => {
      const email = uniqueEmail();
      const first = await signUp(h, { email });
      const second = await signIn(h, email, PASSWORD);
      const secondCookie = String(second.headers["set-cookie"]).split(";")[0] ?? "";
      expect((await dashboard(h, "GET", "/app/api/me", { cookie: secondCookie })).statusCode).toBe(200);
      const changed = await dashboard(h, "POST", "/app/api/auth/change-password", {
        cookie: first.cookie,
        body: { currentPassword: PASSWORD, newPassword: "another long password" },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect((await dashboard(h, "GET", "/app/api/me", { cookie: secondCookie })).statusCode).toBe(401);
      // The session that changed it carries on, under the new cookie it was given.
      const renewed = String(changed.headers["set-cookie"] ?? "")
        .split(/,(?=\s*sightline\.)/)
        .find((cookie) => cookie.trim().startsWith("sightline.session_token="));
      const cookie = renewed?.trim().split(";")[0] ?? first.cookie;
      expect((await dashboard(h, "GET", "/app/api/me", { cookie })).statusCode).toBe(200);
    });
  },
  { config: { accounts: { openSignup: true } } },
);
