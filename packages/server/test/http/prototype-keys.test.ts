import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/errors/api-error.ts";
import type { Route } from "../../src/http/route.ts";
import { V1_ROUTES } from "../../src/http/v1/routes.ts";
import { parseToolInput } from "../../src/mcp/input.ts";
import { MCP_TOOLS } from "../../src/mcp/tools.ts";
import { summarizeResults } from "../../src/services/analyses/summary.ts";
import { evaluateRules } from "../../src/services/monitoring/alerts.ts";
import { createProject, getProject, updateProject } from "../../src/services/projects/projects.ts";
import type { WebhookTransport } from "../../src/services/webhooks/transport.ts";
import { listWorkspaces, workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { dashboard, signUp } from "../helpers/dashboard.ts";
import { PUBLIC_URL, ROUTE_FIXTURES } from "../helpers/fixtures.ts";
import { describeEachDialect, type Harness, routeUrl, type Tenant } from "../helpers/harness.ts";
import { ANALYTICS_BRAND, recomputeFigures, type StoredResult } from "../helpers/recompute.ts";

/**
 * Keys a plain object answers for without holding them (`{}.constructor`, `{}.valueOf`), or whose
 * assignment sets its prototype (`obj.__proto__ = …`). Each is sent wherever a client chooses a key
 * or a name: no request may answer 500, and none may be dropped silently.
 */
const KEYS = ["__proto__", "constructor", "prototype", "valueOf", "toString", "hasOwnProperty"];

const ORDINARY = ANALYTICS_BRAND.prompts[0] ?? "";

/**
 * The fixture's tags: prompt, the key it is tagged under, its tags. A literal "__proto__" key is
 * refused by the JSON body parser (see below), so that prompt is tagged under another spelling,
 * matched like prompts are. `constructor` and `hasOwnProperty` carry no tag: a lookup of their
 * tags found Object.prototype's members instead of nothing.
 */
const TAGGED: [prompt: string, key: string, tags: string[]][] = [
  [ORDINARY, ORDINARY, ["ordinary", "every"]],
  ["valueOf", "valueOf", ["picked", "every"]],
  ["__proto__", "__PROTO__", ["__proto__", "every"]],
  ["toString", "toString", ["toString", "every"]],
  ["prototype", "prototype", ["constructor", "valueOf", "every"]],
];
const TAG_QUERIES = [...KEYS, "every", "picked", "ordinary", "nobody"];

/** The fixture's prompts carrying `tag` (as stored: lower case). */
const promptsTagged = (tag: string) =>
  TAGGED.filter(([, , tags]) => tags.some((t) => t.toLowerCase() === tag.toLowerCase())).map(([prompt]) => prompt);

const fixtureBrand = {
  ...ANALYTICS_BRAND,
  aliases: ["Acme", "prototype"],
  competitors: [
    ...ANALYTICS_BRAND.competitors,
    { name: "constructor", domains: ["constructor.example.com"], aliases: ["valueOf"] },
    { name: "__proto__", aliases: ["toString"], case_sensitive_aliases: ["hasOwnProperty"] },
  ],
  prompts: [...KEYS, ORDINARY],
  prompt_tags: Object.fromEntries(TAGGED.map(([, key, tags]) => [key, tags])),
};
const COMPETITORS = fixtureBrand.competitors.map((c) => c.name);

/** A webhook receiver that takes every delivery: the fixtures' subscriptions point nowhere real. */
const receiver: WebhookTransport = {
  send: async () => ({ statusCode: 204, latencyMs: 1, excerpt: null, error: null }),
};

interface Input {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
}

interface Door {
  name: string;
  send(route: Route, input?: Input): Promise<LightMyRequestResponse>;
}

/** A member of a fresh workspace, with an API key for it: the API's door and the dashboard's. */
interface Member {
  tenant: Tenant;
  doors: Door[];
}

async function member(h: Harness): Promise<Member> {
  const session = await signUp(h);
  const workspace = (await listWorkspaces(h.deps)).find((w) => w.id === session.workspaceId);
  if (workspace === undefined) throw new Error("the sign-up made no workspace");
  const key = await h.key(workspace.id);
  const tenant = { workspace, key, authorization: `Bearer ${key}` };
  const doors: Door[] = [
    { name: "API key", send: (route, input = {}) => h.call(route.operationId, { key, ...input }) },
    {
      name: "session",
      send: (route, input = {}) => {
        const query = Object.entries(input.query ?? {}).map(([name, value]): [string, string] => [name, String(value)]);
        const search = query.length === 0 ? "" : `?${new URLSearchParams(query)}`;
        const url = `/app/api/workspaces/${session.workspaceId}${routeUrl(route, input.params)}${search}`;
        return dashboard(h, route.method, url, {
          cookie: session.cookie,
          ...(input.body === undefined ? {} : { body: input.body }),
        });
      },
    },
  ];
  return { tenant, doors };
}

function route(operationId: string): Route {
  const found = V1_ROUTES.find((r) => r.operationId === operationId);
  if (found === undefined) throw new Error(`no route ${operationId}`);
  return found;
}

/** A route's query parameters and their schemas, read from its own query schema. */
function queryParameters(r: Route): [string, { type?: unknown }][] {
  const properties = (r.query as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties;
  return Object.entries(properties ?? {});
}

/** The query parameters of a route that take text. */
function stringQueryParameters(r: Route): string[] {
  return queryParameters(r)
    .filter(([, schema]) => schema.type === "string" || (Array.isArray(schema.type) && schema.type.includes("string")))
    .map(([name]) => name);
}

const takes = (r: Route, parameter: string) => queryParameters(r).some(([name]) => name === parameter);

const GET_ROUTES = V1_ROUTES.filter((r) => r.method === "GET" && stringQueryParameters(r).length > 0);
const TAG_ROUTES = V1_ROUTES.filter((r) => stringQueryParameters(r).includes("tag"));
const PARAMETER_ROUTES = V1_ROUTES.filter((r) => r.path.includes(":"));

/** Not an error of ours: a success, or a refusal in the error envelope (with one of `codes`, if given). */
function expectAnswered(res: LightMyRequestResponse, what: string, codes?: string[]): void {
  expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
  if (res.statusCode < 400) return;
  const code = res.json().error.code;
  expect(code, `${what}: ${res.body}`).toMatch(/^[A-Z_]+$/);
  if (codes !== undefined) expect(codes, `${what}: ${res.body}`).toContain(code);
}

/** A JSON text as a client's object: its keys own properties, `__proto__` too. */
const parsed = (text: string): Record<string, string[]> => JSON.parse(text);

/** Sorted entries: an object's own keys compared as data (`__proto__` included), in any order. */
const entriesOf = (record: object) => Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

type TagCheck = (body: { [key: string]: unknown }, mine: StoredResult[], what: string) => void;

/** What each `tag=` route must answer with for the fixture's answers to the tagged prompts. */
const TAG_CHECKS = new Map<string, TagCheck>([
  [
    "listResults",
    (body, mine, what) =>
      expect((body.data as { id: string }[]).map((r) => r.id).sort(), what).toEqual(mine.map((r) => r.id).sort()),
  ],
  [
    "getProjectMetrics",
    (body, mine, what) =>
      expect((body as { total: { overall: { counts: { answers: number } } } }).total.overall.counts.answers, what).toBe(
        mine.length,
      ),
  ],
  [
    "getPromptMetrics",
    (body, mine, what) =>
      expect([...new Set((body.data as { prompt: string }[]).map((row) => row.prompt))].sort(), what).toEqual(
        [...new Set(mine.map((r) => r.prompt))].sort(),
      ),
  ],
  [
    "getCompetitorLeaderboard",
    (body, mine, what) => {
      const rows = body.data as { name: string; is_brand: boolean; visibility: unknown; mentioned: number }[];
      const expected = recomputeFigures(mine, COMPETITORS);
      if (mine.length > 0) expect(rows.find((row) => row.is_brand)?.visibility, what).toEqual(expected.visibility);
      for (const competitor of expected.competitors) {
        expect(rows.find((row) => row.name === competitor.name)?.mentioned, `${what} ${competitor.name}`).toBe(
          competitor.mentioned,
        );
      }
    },
  ],
  [
    "getProjectSources",
    (body, mine, what) =>
      expect((body.totals as { citations: number }).citations, what).toBe(
        mine.reduce((sum, r) => sum + (r.status === "succeeded" ? r.citations.length : 0), 0),
      ),
  ],
  [
    "getProjectSearches",
    (body, mine, what) =>
      expect((body.totals as { answers: number }).answers, what).toBe(
        mine.filter((r) => r.status === "succeeded").length,
      ),
  ],
  [
    "getCompetitorSuggestions",
    (body, mine, what) => expect(body.scanned, what).toBe(mine.filter((r) => r.status === "succeeded").length),
  ],
]);

it("finds the routes that take text in their query strings, and every tag= route", () => {
  expect(TAG_ROUTES.map((r) => r.operationId).sort()).toEqual([...TAG_CHECKS.keys()].sort());
  const parameters = new Set(GET_ROUTES.flatMap(stringQueryParameters));
  for (const name of ["tag", "prompt", "engine", "project_id", "cursor", "from", "to"])
    expect(parameters).toContain(name);
});

describeEachDialect(
  "prototype names as keys",
  (h) => {
    describe("an analysed brand whose prompts and competitors are named like Object.prototype's members", () => {
      let m: Member;
      let projectId: string;
      let results: StoredResult[];

      beforeAll(async () => {
        await h.startWorker(receiver);
        m = await member(h);
        const created = await h.call("createProject", { key: m.tenant.key, body: fixtureBrand });
        expect(created.statusCode, created.body).toBe(201);
        projectId = created.json().id;
        const analysis = await h.call("analyze", {
          key: m.tenant.key,
          body: { project_id: projectId, engines: ["sandbox"], samples: 2, wait: 30 },
        });
        expect(analysis.statusCode, analysis.body).toBe(200);
        const listed = await h.call("listResults", { key: m.tenant.key, query: { project_id: projectId, limit: 100 } });
        results = listed.json().data;
        expect(results).toHaveLength(fixtureBrand.prompts.length * 2);
      });

      it("every tag= route answers with exactly the answers to the prompts carrying the tag, through both doors", async () => {
        for (const door of m.doors) {
          for (const tag of TAG_QUERIES) {
            const prompts = promptsTagged(tag);
            const mine = results.filter((r) => prompts.includes(r.prompt));
            for (const r of TAG_ROUTES) {
              const what = `${door.name} ${r.operationId} tag=${tag}`;
              const res = await door.send(r, {
                params: r.path.includes(":id") ? { id: projectId } : {},
                query: {
                  tag,
                  ...(takes(r, "project_id") ? { project_id: projectId } : {}),
                  ...(takes(r, "limit") ? { limit: 100 } : {}),
                },
              });
              expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
              const check = TAG_CHECKS.get(r.operationId);
              if (check === undefined) throw new Error(`no check for the tag= route ${r.operationId}`);
              check(res.json(), mine, what);
            }
          }
        }
      });

      it("the brand returns its prompts' tags under the prompts' own names, __proto__ included", async () => {
        for (const door of m.doors) {
          const res = await door.send(route("getProject"), { params: { id: projectId } });
          expect(res.statusCode, res.body).toBe(200);
          expect(entriesOf(res.json().prompt_tags), door.name).toEqual(
            entriesOf(Object.fromEntries(TAGGED.map(([prompt, , tags]) => [prompt, tags.map((t) => t.toLowerCase())]))),
          );
        }
      });

      for (const r of GET_ROUTES) {
        it(`${r.operationId}: a prototype name as any text query parameter is answered, never a 500`, async () => {
          const fixture = (await ROUTE_FIXTURES[r.operationId]?.(h, m.tenant)) ?? {};
          // The analysed brand wherever a route takes one, so that filters run over its answers; a
          // route naming one of a brand's own things (a script) keeps the fixture's brand.
          const own = Object.keys(fixture.params ?? {}).length > 1;
          const params =
            r.path.startsWith("/projects/:id") && !own ? { ...fixture.params, id: projectId } : fixture.params;
          const base = { ...fixture.query, ...(takes(r, "project_id") ? { project_id: projectId } : {}) };
          for (const door of m.doors) {
            const res = await door.send(r, { ...(params === undefined ? {} : { params }), query: base });
            expect(res.statusCode, `${door.name} ${r.operationId}: ${res.body}`).toBe(200);
          }
          for (const parameter of stringQueryParameters(r)) {
            for (const value of KEYS) {
              for (const door of m.doors) {
                const what = `${door.name} ${r.operationId} ${parameter}=${value}`;
                const res = await door.send(r, {
                  ...(params === undefined ? {} : { params }),
                  query: { ...base, [parameter]: value },
                });
                expectAnswered(res, what);
                // A tag or a prompt is free text: a name nothing carries, or that prompt's answers.
                if (parameter === "tag" || parameter === "prompt")
                  expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
                if (r.operationId === "listResults" && parameter === "prompt") {
                  expect(res.json().data.length, what).toBeGreaterThan(0);
                  expect(
                    res.json().data.every((result: StoredResult) => result.prompt === value),
                    what,
                  ).toBe(true);
                }
              }
            }
          }
        });
      }
    });

    it("a prototype name as any path parameter of any route is not found (or the body refused), never a 500", async () => {
      const m = await member(h);
      for (const r of PARAMETER_ROUTES) {
        for (const value of KEYS) {
          const names = [...r.path.matchAll(/:(\w+)/g)].map((match) => match[1] ?? "");
          const params = Object.fromEntries(names.map((name) => [name, value]));
          const body = r.method === "GET" || r.method === "DELETE" ? undefined : {};
          for (const door of m.doors) {
            const res = await door.send(r, { params, ...(body === undefined ? {} : { body }) });
            expectAnswered(res, `${door.name} ${r.method} ${r.path} with ${value}`, ["NOT_FOUND", "VALIDATION_ERROR"]);
          }
        }
      }
    });

    describe("projects", () => {
      /** A brand whose names, aliases, competitor, prompts, tags, pause, category and features are all KEYS, rotated by `turn`. */
      const rotated = (turn: number) => {
        const k = (i: number) => KEYS[(i + turn) % KEYS.length] ?? "";
        return {
          name: k(0),
          primary_domain: "example.com",
          aliases: [k(1)],
          case_sensitive_aliases: [k(2)],
          competitors: [{ name: k(3), aliases: [k(4)], case_sensitive_aliases: [k(5)] }],
          exclusions: KEYS,
          prompts: KEYS,
          prompt_tags: Object.fromEntries(KEYS.map((key) => [key === "__proto__" ? " __Proto__ " : key, KEYS])),
          paused_prompts: [k(1)],
          category: k(2),
          facts: { headquarters: k(3), features: KEYS },
        };
      };
      const expectStored = (project: Record<string, unknown>, input: ReturnType<typeof rotated>, what: string) => {
        expect(project, what).toMatchObject({
          name: input.name,
          aliases: input.aliases,
          case_sensitive_aliases: input.case_sensitive_aliases,
          competitors: input.competitors.map((c) => ({ ...c, domains: [] })),
          exclusions: KEYS,
          prompts: KEYS,
          paused_prompts: input.paused_prompts,
          category: input.category,
          facts: input.facts,
        });
        const tags = KEYS.map((key) => key.toLowerCase());
        expect(entriesOf(project.prompt_tags as object), what).toEqual(
          entriesOf(Object.fromEntries(KEYS.map((key) => [key, tags]))),
        );
      };

      it("keep every name, alias, exclusion, prompt, tag, category and feature a client chose, through both doors", async () => {
        const m = await member(h);
        for (const door of m.doors) {
          for (let turn = 0; turn < KEYS.length; turn++) {
            const what = `${door.name}, turn ${turn}`;
            const created = await door.send(route("createProject"), { body: rotated(turn) });
            expect(created.statusCode, `${what}: ${created.body}`).toBe(201);
            expectStored(created.json(), rotated(turn), what);
            const id = created.json().id;
            const next = rotated(turn + 1);
            const { primary_domain: _domain, ...patch } = next;
            const updated = await door.send(route("updateProject"), { params: { id }, body: patch });
            expect(updated.statusCode, `${what}: ${updated.body}`).toBe(200);
            expectStored(updated.json(), next, what);
            for (const other of m.doors) {
              const read = await other.send(route("getProject"), { params: { id } });
              expect(read.json(), `${what}, read by ${other.name}`).toEqual(updated.json());
            }
            // A change of the prompts alone keeps the tags of those still tracked, __proto__'s too.
            const fewer = await door.send(route("updateProject"), {
              params: { id },
              body: { prompts: ["__proto__", "valueOf"] },
            });
            expect(entriesOf(fewer.json().prompt_tags), what).toEqual(
              entriesOf(
                Object.fromEntries(["__proto__", "valueOf"].map((key) => [key, KEYS.map((t) => t.toLowerCase())])),
              ),
            );
          }
        }
      });

      it("refuse tags of a prompt the brand does not track, a prototype name too, through both doors", async () => {
        const m = await member(h);
        for (const door of m.doors) {
          const created = await door.send(route("createProject"), {
            body: { name: "Acme", primary_domain: "acme.com", prompts: ["best crm"] },
          });
          const id = created.json().id;
          for (const key of ["__PROTO__", ...KEYS.filter((k) => k !== "__proto__")]) {
            const res = await door.send(route("updateProject"), {
              params: { id },
              body: { prompt_tags: { [key]: ["x"] } },
            });
            expect(res.statusCode, `${door.name} ${key}: ${res.body}`).toBe(400);
            expect(res.json().error.code).toBe("VALIDATION_ERROR");
            expect(res.json().error.details).toContainEqual({
              field: "prompt_tags",
              issue: `“${key}” is not one of the project's prompts`,
            });
          }
          const after = await door.send(route("getProject"), { params: { id } });
          expect(after.json().prompt_tags).toEqual({});
        }
      });

      it('a literal "__proto__" key in a JSON body is an ordinary key on both doors: a client sends back what it read', async () => {
        const m = await member(h);
        for (const door of m.doors) {
          const body = { name: "Acme", primary_domain: "acme.com", prompts: ["__proto__", "valueOf"] };
          const tags = parsed('{"__proto__": ["persona:cto"]}');
          const created = await door.send(route("createProject"), { body: { ...body, prompt_tags: tags } });
          expect(created.statusCode, created.body).toBe(201);
          const id = created.json().id;
          expect(entriesOf(created.json().prompt_tags)).toEqual([["__proto__", ["persona:cto"]]]);
          // What a client read, sent back whole, as the dashboard does.
          const read = await door.send(route("getProject"), { params: { id } });
          const back = parsed(JSON.stringify({ prompt_tags: read.json().prompt_tags }));
          const updated = await door.send(route("updateProject"), { params: { id }, body: back });
          expect(updated.statusCode, updated.body).toBe(200);
          expect(entriesOf(updated.json().prompt_tags)).toEqual([["__proto__", ["persona:cto"]]]);
          // A "__proto__" that is not a tracked prompt is refused like any unknown prompt; nothing changes.
          const other = await door.send(route("createProject"), {
            body: { name: "Globex", primary_domain: "globex.com", prompts: ["valueOf"] },
          });
          const refused = await door.send(route("updateProject"), {
            params: { id: other.json().id },
            body: parsed('{"prompt_tags": {"__proto__": ["x"]}}'),
          });
          expect(refused.statusCode, refused.body).toBe(400);
          expect(refused.json().error.details).toContainEqual({
            field: "prompt_tags",
            issue: "“__proto__” is not one of the project's prompts",
          });
          expect((await door.send(route("getProject"), { params: { id: other.json().id } })).json()).toEqual(
            other.json(),
          );
          // As a field of the body itself, it is an unknown field.
          const unknown = await door.send(route("updateProject"), {
            params: { id },
            body: parsed('{"__proto__": {"name": "Smuggled"}}'),
          });
          expect(unknown.statusCode, unknown.body).toBe(400);
          expect((await door.send(route("getProject"), { params: { id } })).json().name).toBe("Acme");
        }
      });

      it("services: a literal __proto__ key of a tracked prompt is stored like any other, one of an untracked prompt refused", async () => {
        const m = await member(h);
        const ctx = await workspaceContext(h.deps, m.tenant.workspace.id);
        const created = await createProject(ctx, {
          name: "Acme",
          primary_domain: "acme.com",
          prompts: ["__proto__", "valueOf"],
          prompt_tags: parsed('{"__proto__": ["persona:cto"], "valueOf": ["a"]}'),
        });
        const expected = [
          ["__proto__", ["persona:cto"]],
          ["valueOf", ["a"]],
        ];
        expect(entriesOf(created.prompt_tags ?? {})).toEqual(expected);
        expect(entriesOf((await getProject(ctx, created.id)).prompt_tags ?? {})).toEqual(expected);
        for (const door of m.doors) {
          const read = await door.send(route("getProject"), { params: { id: created.id } });
          expect(entriesOf(read.json().prompt_tags)).toEqual(expected);
        }
        const tagged = await h.call("listResults", {
          key: m.tenant.key,
          query: { project_id: created.id, tag: "persona:cto" },
        });
        expect(tagged.statusCode, tagged.body).toBe(200);

        const other = await createProject(ctx, { name: "Other", primary_domain: "other.com", prompts: ["valueOf"] });
        const refusal = await updateProject(ctx, other.id, { prompt_tags: parsed('{"__proto__": ["x"]}') }).catch(
          (error: unknown) => error,
        );
        expect(refusal).toBeInstanceOf(ApiError);
        expect((refusal as ApiError).code).toBe("VALIDATION_ERROR");
        expect((refusal as ApiError).details).toContainEqual({
          field: "prompt_tags",
          issue: "“__proto__” is not one of the project's prompts",
        });
        expect((await getProject(ctx, other.id)).prompt_tags).toEqual({});
      });
    });

    it("competitors, analyses, monitoring and webhooks take prototype names as names, prompts and descriptions, through both doors", async () => {
      const m = await member(h);
      for (const door of m.doors) {
        const created = await door.send(route("createProject"), {
          body: { name: "Acme", primary_domain: "acme.com", prompts: KEYS },
        });
        const id = created.json().id;
        for (const name of KEYS) {
          const tracked = await door.send(route("trackCompetitor"), {
            params: { id },
            body: { name, aliases: [`${name} alias`] },
          });
          expect(tracked.statusCode, `${door.name} ${name}: ${tracked.body}`).toBe(200);
          expect(tracked.json().competitors.at(-1)).toMatchObject({ name, aliases: [`${name} alias`] });
        }
        const analysis = await door.send(route("analyze"), {
          body: { project_id: id, engines: ["sandbox"], prompts: KEYS },
        });
        expect(analysis.statusCode, analysis.body).toBe(202);
        expect(analysis.json().prompts).toEqual(KEYS);

        for (const name of KEYS) {
          const what = `${door.name} ${name}`;
          const rules = [{ type: "competitor_overtakes", competitor: name }];
          const schedule = await door.send(route("createMonitoring"), {
            body: { project_id: id, schedule: { every: "day" }, prompts: KEYS, alert_rules: rules },
          });
          expect(schedule.statusCode, `${what}: ${schedule.body}`).toBe(201);
          expect(schedule.json().alert_rules[0].competitor, what).toBe(name);
          const scheduleId = schedule.json().id;
          const changed = await door.send(route("updateMonitoring"), {
            params: { id: scheduleId },
            body: { prompts: [name], alert_rules: [{ type: "competitor_overtakes", competitor: name.toUpperCase() }] },
          });
          expect(changed.statusCode, `${what}: ${changed.body}`).toBe(200);
          expect(changed.json()).toMatchObject({ prompts: [name], alert_rules: [{ competitor: name }] });
          for (const body of [{ timezone: name }, { engines: [name] }, { alert_rules: [{ type: name }] }]) {
            expectAnswered(
              await door.send(route("updateMonitoring"), { params: { id: scheduleId }, body }),
              `${what} ${JSON.stringify(body)}`,
              ["VALIDATION_ERROR"],
            );
          }
          const run = await door.send(route("runMonitoring"), { params: { id: scheduleId } });
          expect(run.statusCode, `${what} run: ${run.body}`).toBe(202);
          expect(run.json().status, what).toBe("queued");

          const webhook = await door.send(route("createWebhook"), {
            body: { url: `${PUBLIC_URL}/${name}`, events: ["project.updated"], description: name },
          });
          expect(webhook.statusCode, `${what}: ${webhook.body}`).toBe(201);
          expect(webhook.json().description, what).toBe(name);
          const described = await door.send(route("updateWebhook"), {
            params: { id: webhook.json().id },
            body: { description: `${name} ${name}` },
          });
          expect(described.json().description, what).toBe(`${name} ${name}`);
          for (const body of [
            { project_id: id, engines: ["sandbox"], prompts: [name], country: name },
            { project_id: id, engines: ["sandbox"], prompts: [name], language: name },
            { project_id: id, engines: [name] },
            { project_id: name },
          ]) {
            expectAnswered(await door.send(route("analyze"), { body }), `${what} analyze ${JSON.stringify(body)}`, [
              "VALIDATION_ERROR",
              "NOT_FOUND",
            ]);
          }
          expectAnswered(
            await door.send(route("suggestPrompts"), { params: { id }, body: { engine: name } }),
            `${what} suggestPrompts`,
            ["VALIDATION_ERROR"],
          );
        }
      }
    });
  },
  // A fresh member per test (open sign-up), and some thousand requests to one workspace in a
  // minute: rate limits are not what this suite is about.
  { config: { rateLimits: false, accounts: { openSignup: true } } },
);

describe("outside keys as plain objects' keys, below the HTTP doors", () => {
  it("an MCP tool argument named __proto__ is an unknown argument, not the arguments' prototype", () => {
    const tool = MCP_TOOLS.find((t) => t.name === "list_results");
    if (tool === undefined) throw new Error("no list_results tool");
    // As the SDK hands arguments over from stdio: JSON.parse, which keeps the key as an own property.
    const args = JSON.parse('{"__proto__": {"tag": "smuggled"}, "limit": 5}');
    const refusal = (() => {
      try {
        return parseToolInput(tool, args);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).details).toContainEqual({ field: "__proto__", issue: "is not a known field" });
  });

  it("an alert rule judging an engine named constructor holds nowhere when no answer of that engine came back", () => {
    const summary = summarizeResults([], [], ["sandbox"], []);
    const rule = {
      id: "rule_1",
      type: "visibility_below" as const,
      threshold: 0.5,
      engines: ["constructor", "toString"],
    };
    expect(evaluateRules([rule], summary, summary, () => false)).toEqual([]);
  });
});
