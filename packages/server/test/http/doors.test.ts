import type { LightMyRequestResponse } from "fastify";
import { beforeAll, expect, it } from "vitest";
import { MEMBER_LIMITS } from "../../src/http/doors/member-limits.ts";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { createAnalysis } from "../../src/services/analyses/create.ts";
import { waitForAnalysis } from "../../src/services/analyses/wait.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { DEFAULT_PLANS } from "../../src/services/plans/catalog.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { listReports } from "../../src/services/reports/reports.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { dashboard, ORIGIN, type Session, signUp } from "../helpers/dashboard.ts";
import { describeEachDialect, routeUrl } from "../helpers/harness.ts";

/**
 * One runner behind every door (issue 22): the same route reached with an API key (`/v1`) and with
 * a member's session (`/app/api/workspaces/:ws/v1`) answers with the same status, headers and
 * body. The workspace's plan allows as many requests a minute as a member may make, so that the
 * two doors' rate-limit headers count alike too.
 */

/** Headers that say something about the answer (not the request id or the date). */
const COMPARED = [
  "content-type",
  "content-disposition",
  "x-content-type-options",
  "preference-applied",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "retry-after",
];

function shape(res: LightMyRequestResponse) {
  const headers = Object.fromEntries(
    COMPARED.flatMap((name) => (name in res.headers ? [[name, res.headers[name]]] : [])),
  );
  const isJson = String(res.headers["content-type"] ?? "").startsWith("application/json");
  const body = isJson ? JSON.parse(res.body.replace(/"req_[A-Za-z0-9]+"/g, '"req_…"')) : res.body;
  return { status: res.statusCode, headers, body };
}

function operation(operationId: string) {
  const route = V1_ROUTES.find((r) => r.operationId === operationId);
  if (route === undefined) throw new Error(operationId);
  return route;
}

describeEachDialect(
  "the key door and the session door",
  (h) => {
    let session: Session;
    let key: string;
    let projectId: string;
    let analysisId: string;
    let reportId: string;
    let ctx: ServiceContext;

    /** The same operation through both doors, one after the other. */
    async function both(
      operationId: string,
      input: { params?: Record<string, string>; query?: string; body?: unknown; headers?: Record<string, string> } = {},
    ) {
      const route = operation(operationId);
      const path = `${routeUrl(route, input.params).slice("/v1".length)}${input.query === undefined ? "" : `?${input.query}`}`;
      const viaKey = await h.app.inject({
        method: route.method,
        url: `/v1${path}`,
        headers: {
          authorization: `Bearer ${key}`,
          ...input.headers,
          ...(input.body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(input.body === undefined ? {} : { payload: JSON.stringify(input.body) }),
      });
      const viaSession = await dashboard(h, route.method, `/app/api/workspaces/${session.workspaceId}/v1${path}`, {
        cookie: session.cookie,
        ...(input.body === undefined ? {} : { body: input.body }),
        ...(input.headers === undefined ? {} : { headers: input.headers }),
      });
      return { viaKey, viaSession };
    }

    beforeAll(async () => {
      await h.startWorker();
      session = await signUp(h);
      key = await h.key(session.workspaceId);
      // Through the services, not a door: both doors' counts start from nothing.
      ctx = await workspaceContext(h.deps, session.workspaceId);
      projectId = (
        await createProject(ctx, {
          name: "Acme",
          primary_domain: "acme.example.com",
          prompts: ["best CRM for agencies?"],
        })
      ).id;
      const queued = await createAnalysis(ctx, { project_id: projectId, engines: ["sandbox"] }, { trigger: "api" });
      const outcome = await waitForAnalysis(ctx, queued.id, 30, new AbortController().signal);
      expect(outcome.finished).toBe(true);
      analysisId = queued.id;
      reportId = (await listReports(ctx, { project_id: projectId })).data[0]?.id ?? "";
    });

    it("answer alike: status, headers (rate limits included) and body, route by route", async () => {
      const calls: [string, Parameters<typeof both>[1]][] = [
        ["listProjects", {}],
        ["listProjects", {}], // the second from the read cache, on both doors
        ["getProject", { params: { id: projectId } }],
        ["getProject", { params: { id: "prj_nothing" } }],
        ["listResults", { query: `project_id=${projectId}&limit=5` }],
        ["getProjectMetrics", { params: { id: projectId } }],
        ["getReport", { params: { id: reportId }, query: "format=csv" }],
        ["getReport", { params: { id: reportId } }],
        ["getAnalysis", { params: { id: analysisId } }],
        ["listProjects", { query: "limit=0" }],
      ];
      for (const [operationId, input] of calls) {
        const { viaKey, viaSession } = await both(operationId, input);
        expect(shape(viaSession), `${operationId} ${JSON.stringify(input)}`).toEqual(shape(viaKey));
        expect(viaKey.headers["x-ratelimit-remaining"]).toBeDefined();
      }
    });

    it("apply the route's own rules alike: another status with its headers, an optional body", async () => {
      // A wait through `Prefer`: 200 with Preference-Applied on both doors; the ids differ, the rest not.
      const { viaKey, viaSession } = await both("analyze", {
        body: { project_id: projectId, engines: ["sandbox"] },
        headers: { prefer: "wait=30" },
      });
      for (const res of [viaKey, viaSession]) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers["preference-applied"]).toBe("wait=30");
        expect(res.json()).toMatchObject({ object: "analysis", status: "completed" });
      }
      expect(viaSession.headers["x-ratelimit-remaining"]).toBe(viaKey.headers["x-ratelimit-remaining"]);
      // A link with no body at all: every field of it is optional.
      const shares = await both("createReportShare", { params: { id: reportId } });
      expect(shares.viaKey.statusCode, shares.viaKey.body).toBe(201);
      expect(shares.viaSession.statusCode, shares.viaSession.body).toBe(201);
    });

    it("refuse a member past the dashboard's limit with 429, as the key door does past the plan's", async () => {
      const url = `/app/api/workspaces/${session.workspaceId}/v1/projects/${projectId}`;
      let remaining = Number.POSITIVE_INFINITY;
      let refused: LightMyRequestResponse | null = null;
      for (let i = 0; i <= MEMBER_LIMITS.perMemberPerMinute && refused === null; i++) {
        const res = await dashboard(h, "GET", url, { cookie: session.cookie });
        if (res.statusCode === 429) refused = res;
        else remaining = Number(res.headers["x-ratelimit-remaining"]);
      }
      expect(remaining).toBe(0);
      expect(refused?.json().error.code).toBe("RATE_LIMIT_EXCEEDED");
      expect(Number(refused?.headers["retry-after"])).toBeGreaterThan(0);
      expect(refused?.headers["x-ratelimit-limit"]).toBe(String(MEMBER_LIMITS.perMemberPerMinute));
      // The dashboard's own routes count against the same member.
      const me = await dashboard(h, "GET", "/app/api/me", { cookie: session.cookie });
      expect(me.statusCode).toBe(429);
      // The key door has its own allowance, untouched by the dashboard.
      const viaKey = await h.app.inject({
        method: "GET",
        url: `/v1/projects/${projectId}`,
        headers: { authorization: `Bearer ${key}`, origin: ORIGIN },
      });
      expect(viaKey.statusCode).toBe(200);
    });
  },
  {
    config: {
      accounts: { openSignup: true },
      plans: {
        ...DEFAULT_PLANS,
        agency: { ...DEFAULT_PLANS.agency, requestsPerMinute: MEMBER_LIMITS.perMemberPerMinute },
      },
    },
  },
);
