import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningWorker } from "../../src/app/worker.ts";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { ChatCompletionsAdapter } from "../../src/services/engines/adapters/chat-completions.ts";
import { type FakeVendor, lastUserText, startFakeVendor, tokens } from "../helpers/fake-vendors/server.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";

/**
 * Experiments end to end (issue 27), on both dialects: a brand's answers before a change, an
 * opportunity, the change recorded from it, its extra samples scheduled and run until the result
 * is ready, the alert, the report, and every figure recomputed here from the stored answers.
 *
 * The `scripted` engine is a local fake speaking the OpenAI-compatible chat wire format: for each
 * prompt it names the brand with a probability the test sets, drawn from a seeded generator per
 * prompt and per request of that prompt, so that each analysis's answers are the same on every
 * run. The sandbox's answers are seeded by the analysis id (random), so figures resting on them
 * are not fixed: the test recomputes them from the stored rows rather than expecting numbers.
 */

const DAY = 86_400_000;
const GAP_DOMAIN = "crmreviews.net";
const CHANGED_PAGE = "https://acmecrm.com/guide";

const TREATED = [
  "best CRM for startups?",
  "CRM with email automation?",
  "cheapest CRM for small teams?",
  "CRM for real estate agents?",
];
const CONTROL = [
  "how to migrate CRM data?",
  "CRM vs spreadsheet?",
  "what is a sales pipeline?",
  "CRM onboarding checklist?",
  "how to clean CRM contacts?",
  "CRM security best practices?",
];

// ---------------------------------------------------------------------------------------------
// The scripted engine.

function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** mulberry32's first draw for a seed: one uniform number in [0, 1). */
function draw(seed: number): number {
  const a = (seed + 0x6d2b79f5) >>> 0;
  let t = Math.imul(a ^ (a >>> 15), a | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** What the scripted engine answers: per prompt, the chance an answer names the brand. */
class Script {
  #rates = new Map<string, number>();
  #asked = new Map<string, number>();
  #seed = 0;
  /** Prompts whose answers not naming the brand cite GAP_DOMAIN (and name a competitor). */
  gap = new Set<string>();
  /** Prompts whose answers naming the brand cite the changed page. */
  citesPage = new Set<string>();

  reset(seed: number) {
    this.#seed = seed;
    this.#rates.clear();
    this.#asked.clear();
    this.gap.clear();
    this.citesPage.clear();
  }
  rate(prompts: readonly string[], chance: number) {
    for (const prompt of prompts) this.#rates.set(prompt, chance);
  }
  /** The answer to a prompt's next request: the k-th request of a prompt always draws the same number. */
  answer(prompt: string): { text: string; citations: string[] } {
    const k = this.#asked.get(prompt) ?? 0;
    this.#asked.set(prompt, k + 1);
    const named = draw(hashOf(`${this.#seed}|${prompt}|${k}`)) < (this.#rates.get(prompt) ?? 0);
    if (named)
      return {
        text: "Acme CRM is the one to pick here; HubSpot is the other usual option.",
        citations: this.citesPage.has(prompt) ? [CHANGED_PAGE] : [],
      };
    return this.gap.has(prompt)
      ? { text: "HubSpot is the usual pick; Pipedrive is good too.", citations: [`https://${GAP_DOMAIN}/best-crm`] }
      : { text: "Most teams pick Pipedrive or HubSpot.", citations: [] };
  }
}

/** A fake OpenAI-compatible chat completions server answering from the script, with a Perplexity-style cost and citations. */
function startScriptedVendor(script: Script): Promise<FakeVendor> {
  const errorBody = (status: number) => ({ error: { message: `status ${status}`, type: "error", code: status } });
  return startFakeVendor({
    basePath: "",
    serves: (request) => request.method === "POST" && request.path === "/chat/completions",
    notFound: () => ({ status: 404, body: errorBody(404) }),
    rateLimitHeaders: () => ({ "retry-after": "1" }),
    errorBody,
    reply: ({ request }) => {
      const prompt = lastUserText(request.body);
      const { text, citations } = script.answer(prompt);
      const usage = { prompt_tokens: tokens(prompt), completion_tokens: tokens(text) };
      return {
        status: 200,
        body: {
          id: `chatcmpl-${hashOf(`${prompt}|${Math.random()}`)}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: "scripted-1",
          choices: [{ index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", content: text } }],
          usage: {
            ...usage,
            total_tokens: usage.prompt_tokens + usage.completion_tokens,
            cost: { total_cost: 0.002 },
          },
          citations,
        },
      };
    },
  });
}

// ---------------------------------------------------------------------------------------------
// The arithmetic, written here: Welch's t on per-prompt changes (not the product's estimator).

/** ln Γ(x), Lanczos (Numerical Recipes' gammln). */
function logGamma(x: number): number {
  const c = [
    76.18009172947146, -86.50532032941678, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2,
    -0.5395239384953e-5,
  ];
  let y = x;
  const tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let series = 1.000000000190015;
  for (const coefficient of c) series += coefficient / ++y;
  return -tmp + Math.log((2.5066282746310007 * series) / x);
}

/** The continued fraction of the incomplete beta function (Lentz's method). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(|T| ≥ t) for Student's t with df degrees of freedom. */
const twoSided = (t: number, df: number) => incompleteBeta(df / (df + t * t), df / 2, 0.5);

/** The q-quantile of Student's t (q > 0.5), by bisection on the two-sided tail. */
function quantile(q: number, df: number): number {
  let low = 0;
  let high = 1_000;
  for (let i = 0; i < 200; i++) {
    const mid = (low + high) / 2;
    if (1 - twoSided(mid, df) / 2 < q) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

interface StoredAnswer {
  prompt: string;
  engine: string;
  mentioned: boolean;
  at: number;
}

interface Recomputed {
  effect: number;
  low: number;
  high: number;
  p: number;
  treated: number;
  control: number;
  answers: number;
}

/** Per prompt, share after − share before; Welch's t on the treated against the controls' changes. */
function welchOnPrompts(answers: readonly StoredAnswer[], treated: readonly string[], splitAt: number): Recomputed {
  const cells = new Map<string, { before: number[]; after: number[] }>();
  for (const a of answers) {
    const cell = cells.get(a.prompt) ?? { before: [], after: [] };
    (a.at >= splitAt ? cell.after : cell.before).push(a.mentioned ? 1 : 0);
    cells.set(a.prompt, cell);
  }
  const share = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
  const changes = { treated: [] as number[], control: [] as number[] };
  let counted = 0;
  for (const [prompt, cell] of cells) {
    if (cell.before.length === 0 || cell.after.length === 0) continue;
    counted += cell.before.length + cell.after.length;
    (treated.includes(prompt) ? changes.treated : changes.control).push(share(cell.after) - share(cell.before));
  }
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const variance = (v: number[]) => v.reduce((s, x) => s + (x - mean(v)) ** 2, 0) / (v.length - 1);
  const nt = changes.treated.length;
  const nc = changes.control.length;
  const effect = mean(changes.treated) - mean(changes.control);
  const vt = variance(changes.treated) / nt;
  const vc = variance(changes.control) / nc;
  const se = Math.sqrt(vt + vc);
  const df = (vt + vc) ** 2 / (vt ** 2 / (nt - 1) + vc ** 2 / (nc - 1));
  const half = quantile(0.975, df) * se;
  return {
    effect,
    low: effect - half,
    high: effect + half,
    p: twoSided(Math.abs(effect) / se, df),
    treated: nt,
    control: nc,
    answers: counted,
  };
}

/** The API's figure (rounded to 4 digits, clamped to ±1) against ours. */
function expectFigures(
  api: { effect: number; ci_low: number; ci_high: number; p_value: number; answers: number },
  ours: Recomputed,
) {
  const near = (a: number, b: number, what: string) =>
    expect(Math.abs(a - b), `${what}: API ${a}, recomputed ${b}`).toBeLessThanOrEqual(1.0001e-4);
  near(api.effect, ours.effect, "effect");
  near(api.ci_low, Math.max(-1, ours.low), "ci_low");
  near(api.ci_high, Math.min(1, ours.high), "ci_high");
  near(api.p_value, ours.p, "p_value");
  expect(api.answers).toBe(ours.answers);
}

// ---------------------------------------------------------------------------------------------

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

describeEachDialect(
  "experiments end to end",
  (h: Harness) => {
    const script = new Script();
    let vendor: FakeVendor;
    let worker: RunningWorker;
    beforeAll(async () => {
      vendor = await startScriptedVendor(script);
      h.deps.engines.use(
        new ChatCompletionsAdapter(
          { name: "scripted", apiKey: "test-key", baseUrl: vendor.url, model: "scripted-1" },
          // Generous: the figures count every answer, and a loaded machine must not time one out.
          30_000,
        ),
        8,
      );
      worker = await h.startWorker(undefined, { pollIntervalMs: 20 });
    });
    afterAll(async () => {
      await worker.stop(1_000);
      await vendor.stop();
    });

    /** Waits until no analysis of the workspace is queued or running (its hooks ran in its last transaction). */
    async function settle(workspaceId: string) {
      await until(
        () =>
          h.deps.db
            .selectFrom("analyses")
            .select("status")
            .where("workspace_id", "=", workspaceId)
            .where("status", "in", ["queued", "running"])
            .execute(),
        (rows) => rows.length === 0,
      );
    }

    async function brand(t: Tenant, engines: string[], prompts = [...TREATED, ...CONTROL]) {
      const created = await h.call("createProject", {
        key: t.key,
        body: {
          name: "Acme CRM",
          primary_domain: "acmecrm.com",
          competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }, { name: "Pipedrive" }],
          prompts,
          engines,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json() as { id: string };
    }

    async function analyze(t: Tenant, projectId: string, samples: number) {
      const queued = await h.call("analyze", { key: t.key, body: { project_id: projectId, samples } });
      expect(queued.statusCode, queued.body).toBe(202);
      await settle(t.workspace.id);
      const done = (await h.call("getAnalysis", { key: t.key, params: { id: queued.json().id } })).json();
      expect(done.status).toBe("completed");
      // Every answer counts in the figures and the plan checked below.
      expect(done.progress.failed, JSON.stringify(done.errors)).toBe(0);
    }

    const changesOf = async (workspaceId: string) =>
      Number(
        (
          await h.deps.db
            .selectFrom("changes")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("workspace_id", "=", workspaceId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    /** The stored answers an experiment rests on, read straight from `results`. */
    async function storedAnswers(projectId: string, from: string, to: string, engines: readonly string[]) {
      const rows = await h.deps.db
        .selectFrom("results")
        .select(["prompt", "engine", "mentioned", "created_at", "status"])
        .where("project_id", "=", projectId)
        .where("created_at", ">=", from)
        .where("created_at", "<=", to)
        .execute();
      return rows
        .filter((r) => r.status === "succeeded" && engines.includes(r.engine))
        .map((r) => ({
          prompt: r.prompt,
          engine: r.engine,
          mentioned: Boolean(r.mentioned),
          at: Date.parse(r.created_at),
        }));
    }

    it("refuses bad input with VALIDATION_ERROR and records nothing", async () => {
      h.clock.set(Date.parse("2027-01-10T12:00:00Z"));
      const t = await h.tenant("agency");
      const project = await brand(t, ["scripted"], [...TREATED, ...CONTROL.slice(0, 2)]);
      const [a, b, c, d] = TREATED as [string, string, string, string];
      const [e, f] = CONTROL as [string, string];
      const cases: { body: Record<string, unknown>; field: string; issue: RegExp }[] = [
        {
          body: { prompts: [a, "which CRM does Tesla use?"], control_prompts: [e, f] },
          field: "prompts[1]",
          issue: /not one of the brand's prompts/,
        },
        {
          body: { prompts: [a, b], control_prompts: [e, f], pages: ["https://hubspot.com/crm"] },
          field: "pages[0]",
          issue: /not on one of the brand's domains/,
        },
        {
          body: { prompts: [a, b], control_prompts: [e, f], changed_at: "last Tuesday" },
          field: "changed_at",
          issue: /ISO 8601/,
        },
        {
          body: { prompts: [a, b], control_prompts: [b, e, f] },
          field: "control_prompts[0]",
          issue: /also a treated prompt/,
        },
        { body: { prompts: [a], control_prompts: [e, f] }, field: "prompts", issue: /at least 2 treated/ },
        { body: { prompts: [a, b], control_prompts: [e] }, field: "control_prompts", issue: /at least 2 control/ },
        {
          body: { prompts: [a, b, c, d], control_prompts: [e, f], opportunity_id: "opp_nothing" },
          field: "opportunity_id",
          issue: /not one of the brand's current opportunities/,
        },
      ];
      for (const { body, field, issue } of cases) {
        const res = await h.call("createChange", {
          key: t.key,
          params: { id: project.id },
          body: { title: "Rewrote the guide", ...body },
        });
        expect(res.statusCode, res.body).toBe(400);
        const error = res.json().error;
        expect(error.code).toBe("VALIDATION_ERROR");
        expect(error.details, JSON.stringify(body)).toContainEqual({ field, issue: expect.stringMatching(issue) });
      }
      expect(await changesOf(t.workspace.id)).toBe(0);
      expect(await h.count("monitoring_schedules", t.workspace.id)).toBe(0);
      const list = await h.call("listChanges", { key: t.key, params: { id: project.id } });
      expect(list.json().data).toEqual([]);
    });

    it("keeps each workspace's changes its own: another workspace's change id is NOT_FOUND", async () => {
      h.clock.set(Date.parse("2027-01-20T12:00:00Z"));
      const owner = await h.tenant("agency");
      const other = await h.tenant("agency");
      const project = await brand(owner, ["scripted"]);
      const otherProject = await brand(other, ["scripted"]);
      const created = await h.call("createChange", {
        key: owner.key,
        params: { id: project.id },
        body: { title: "New pricing page", prompts: TREATED.slice(0, 2), control_prompts: CONTROL.slice(0, 2) },
      });
      expect(created.statusCode, created.body).toBe(201);
      const change = created.json();
      for (const params of [
        { id: project.id, change_id: change.id },
        { id: otherProject.id, change_id: change.id },
      ]) {
        for (const operationId of ["getChange", "deleteChange", "scheduleChangeSamples"]) {
          const res = await h.call(operationId, {
            key: other.key,
            params,
            ...(operationId === "scheduleChangeSamples" ? { body: {} } : {}),
          });
          expect(res.statusCode, `${operationId} ${res.body}`).toBe(404);
          expect(res.json().error.code).toBe("NOT_FOUND");
        }
      }
      const listed = await h.call("listChanges", { key: other.key, params: { id: otherProject.id } });
      expect(listed.json().data).toEqual([]);
      const still = await h.call("getChange", { key: owner.key, params: { id: project.id, change_id: change.id } });
      expect(still.statusCode).toBe(200);
      expect(still.json()).toMatchObject({ id: change.id, plan: { schedule_id: null } });
      expect(await h.count("monitoring_schedules", other.workspace.id)).toBe(0);
      const deleted = await h.call("deleteChange", {
        key: owner.key,
        params: { id: project.id, change_id: change.id },
      });
      expect(deleted.json()).toEqual({ id: change.id, object: "change", deleted: true });
      const gone = await h.call("getChange", { key: owner.key, params: { id: project.id, change_id: change.id } });
      expect(gone.statusCode).toBe(404);
    });

    it("stays collecting while the answers after the change are short, and says how many are needed", {
      timeout: 60_000,
    }, async () => {
      const changedAt = Date.parse("2027-02-01T12:00:00Z");
      script.reset(11);
      script.rate(TREATED, 0.2);
      script.rate(CONTROL, 0.4);
      h.clock.set(changedAt - 6 * DAY);
      const t = await h.tenant("agency");
      const project = await brand(t, ["scripted"]);
      await analyze(t, project.id, 5);
      h.clock.set(changedAt);
      const created = await h.call("createChange", {
        key: t.key,
        params: { id: project.id },
        body: {
          title: "Rewrote the guide",
          changed_at: iso(changedAt),
          prompts: TREATED,
          control_prompts: CONTROL,
          effect: 0.3,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id;
      script.rate(TREATED, 0.7);
      h.clock.set(changedAt + DAY);
      await analyze(t, project.id, 2);
      h.clock.set(changedAt + 2 * DAY);
      const change = (await h.call("getChange", { key: t.key, params: { id: project.id, change_id: id } })).json();
      const cells = (TREATED.length + CONTROL.length) * 1;
      expect(change.plan.answers_per_prompt).toBeGreaterThan(2);
      expect(change.plan.after).toEqual({ answers: 2 * cells, needed: change.plan.answers_per_prompt * cells });
      expect(change.plan.before).toEqual({ answers: 5 * cells, needed: change.plan.answers_per_prompt * cells });
      const missing = change.plan.after.needed - change.plan.after.answers;
      expect(change.status).toBe("collecting");
      expect(change.result_at).toBeNull();
      expect(change.summary).toContain(
        `Collecting: ${missing.toLocaleString("en-US")} more answers needed after the change.`,
      );
      // The figures so far are given, with their interval.
      expect(change.visibility.overall.status).toBe("estimate");
      expect(change.plan.credits).toBe(missing);
      expect(change.plan.message).toContain(`The answers missing cost ${missing.toLocaleString("en-US")} credits`);
    });

    it("does not call a result when the treated prompts were already drifting apart before the change", {
      timeout: 60_000,
    }, async () => {
      const changedAt = Date.parse("2027-03-01T12:00:00Z");
      script.reset(23);
      script.rate(TREATED, 0.05);
      script.rate(CONTROL, 0.4);
      h.clock.set(changedAt - 20 * DAY);
      const t = await h.tenant("agency");
      const project = await brand(t, ["scripted"]);
      await analyze(t, project.id, 10);
      // Before the change already, the treated prompts rise and the controls stay.
      script.rate(TREATED, 0.9);
      h.clock.set(changedAt - 10 * DAY);
      await analyze(t, project.id, 10);
      h.clock.set(changedAt);
      const created = await h.call("createChange", {
        key: t.key,
        params: { id: project.id },
        body: {
          title: "Placement on a listicle",
          placement_url: "https://lists.example.org/best-crm",
          changed_at: iso(changedAt),
          prompts: TREATED,
          control_prompts: CONTROL,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id;
      h.clock.set(changedAt + DAY);
      await analyze(t, project.id, 10);
      // The window closes 28 days after the change: the next analysis settles it.
      h.clock.set(changedAt + 29 * DAY);
      await analyze(t, project.id, 1);
      const change = (await h.call("getChange", { key: t.key, params: { id: project.id, change_id: id } })).json();
      expect(change.result_at).toBe(iso(changedAt + 29 * DAY));
      expect(change.window.after_to).toBe(iso(changedAt + 28 * DAY));
      expect(change.pre_trend.diverging).toBe(true);
      expect(change.pre_trend.p_value).toBeLessThan(0.05);
      expect(change.status).toBe("not_called");
      expect(change.summary).toMatch(/^Not called: the treated and control prompts were already drifting apart/);
      // The pre-trend, recomputed: the period before split at its median answer time.
      const before = (
        await storedAnswers(project.id, change.window.before_from, change.window.after_to, ["scripted"])
      ).filter((a) => a.at < changedAt);
      const times = before.map((a) => a.at).sort((x, y) => x - y);
      const pre = welchOnPrompts(before, TREATED, times[Math.floor(times.length / 2)] as number);
      expect(Math.abs(change.pre_trend.effect - pre.effect)).toBeLessThanOrEqual(1.0001e-4);
      expect(Math.abs(change.pre_trend.p_value - pre.p)).toBeLessThanOrEqual(1.0001e-4);
    });

    it("measures a change made from an opportunity: plan, samples, result, alert, report, figures recomputed", {
      timeout: 120_000,
    }, async () => {
      const changedAt = Date.parse("2027-05-01T12:00:00Z");
      // The truth: on the scripted engine the treated prompts name the brand 10% of the time
      // before and 90% after; the controls 40% throughout. The sandbox knows nothing of the change.
      script.reset(42);
      script.rate(TREATED, 0.1);
      script.rate(CONTROL, 0.4);
      for (const prompt of TREATED) script.gap.add(prompt);
      h.clock.set(changedAt - 10 * DAY);
      const t = await h.tenant("agency");
      const project = await brand(t, ["sandbox", "scripted"]);
      await analyze(t, project.id, 10);
      h.clock.set(changedAt - 5 * DAY);
      await analyze(t, project.id, 10);

      // 2. The opportunity: competitors are named, and the brand not, in answers citing GAP_DOMAIN.
      h.clock.set(changedAt);
      const opportunities = await h.call("listOpportunities", {
        key: t.key,
        params: { id: project.id },
        query: { kind: "citation_gap", limit: 100 },
      });
      expect(opportunities.statusCode, opportunities.body).toBe(200);
      const opportunity = opportunities.json().data.find((o: { domain: string | null }) => o.domain === GAP_DOMAIN);
      expect(
        opportunity,
        JSON.stringify(opportunities.json().data.map((o: { domain: string }) => o.domain)),
      ).toBeDefined();
      expect([...opportunity.prompts].sort()).toEqual([...TREATED].sort());

      const created = await h.call("createChange", {
        key: t.key,
        params: { id: project.id },
        body: {
          title: "Rewrote the buyer's guide",
          changed_at: iso(changedAt),
          pages: [CHANGED_PAGE],
          opportunity_id: opportunity.id,
          effect: 0.3,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const change = created.json();
      expect(change).toMatchObject({
        opportunity_id: opportunity.id,
        changed_at: iso(changedAt),
        engines: ["sandbox", "scripted"],
        pages: [CHANGED_PAGE],
        status: "collecting",
        result_at: null,
      });
      expect([...change.prompts].sort()).toEqual([...opportunity.prompts].sort());
      expect([...change.control_prompts].sort()).toEqual([...CONTROL].sort());

      // 3. The plan: answers needed each side, what is missing, its credits and cost.
      const cells = (TREATED.length + CONTROL.length) * 2;
      const plan = change.plan;
      expect(plan.answers_per_prompt).toBeGreaterThanOrEqual(1);
      expect(plan.after).toEqual({ answers: 0, needed: plan.answers_per_prompt * cells });
      expect(plan.before).toEqual({ answers: 2 * 10 * cells, needed: plan.answers_per_prompt * cells });
      expect(plan.credits).toBe(plan.after.needed); // the change is in the past: only answers after are missing
      const priced = await h.deps.db
        .selectFrom("results")
        .select(["engine", "cost_micros"])
        .where("project_id", "=", project.id)
        .execute();
      const perEngine = ["sandbox", "scripted"]
        .map((engine) => priced.filter((r) => r.engine === engine && r.cost_micros !== null))
        .filter((rows) => rows.length > 0)
        .map((rows) => rows.reduce((s, r) => s + Number(r.cost_micros), 0) / 1_000_000 / rows.length);
      expect(perEngine.length).toBeGreaterThan(0);
      const perAnswer = perEngine.reduce((s, v) => s + v, 0) / perEngine.length;
      expect(plan.cost_usd).toBe(Math.round(perAnswer * plan.credits * 100) / 100);
      expect(plan.message).toContain(`${plan.answers_per_prompt} answers per prompt and engine`);

      const scheduled = await h.call("scheduleChangeSamples", {
        key: t.key,
        params: { id: project.id, change_id: change.id },
        body: { at: "09:00" },
      });
      expect(scheduled.statusCode, scheduled.body).toBe(200);
      const samples = scheduled.json().plan;
      expect(samples.schedule_id).toMatch(/^mon_/);
      expect(samples.samples_per_run).toBe(Math.ceil(plan.answers_per_prompt / 7));
      const again = await h.call("scheduleChangeSamples", {
        key: t.key,
        params: { id: project.id, change_id: change.id },
        body: {},
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().error.code).toBe("VALIDATION_ERROR");
      const schedule = (await h.call("getMonitoring", { key: t.key, params: { id: samples.schedule_id } })).json();
      expect(schedule).toMatchObject({
        project_id: project.id,
        engines: ["sandbox", "scripted"],
        samples: samples.samples_per_run,
        schedule: { every: "day", at: "09:00" },
        timezone: "UTC",
        active: true,
      });
      expect([...schedule.prompts].sort()).toEqual([...TREATED, ...CONTROL].sort());
      expect(schedule.alert_rules).toEqual([expect.objectContaining({ type: "experiment_result" })]);

      // 4. After the change: the treated prompts name the brand (and cite the changed page).
      script.rate(TREATED, 0.9);
      for (const prompt of TREATED) script.citesPage.add(prompt);
      const runsNeeded = Math.ceil(plan.answers_per_prompt / samples.samples_per_run);
      let view = change;
      let runs = 0;
      const reportIds: string[] = [];
      while (view.result_at === null && runs < 10) {
        runs++;
        h.clock.set(changedAt + runs * DAY);
        const run = await h.call("runMonitoring", { key: t.key, params: { id: samples.schedule_id } });
        expect(run.statusCode, run.body).toBe(202);
        await settle(t.workspace.id);
        view = (await h.call("getChange", { key: t.key, params: { id: project.id, change_id: change.id } })).json();
        const latest = (await h.call("listReports", { key: t.key, query: { project_id: project.id, limit: 1 } })).json()
          .data[0];
        reportIds.push(latest.id);
      }
      // The result is ready on the run that brought the planned answers after the change, not later.
      expect(runs).toBe(runsNeeded);
      expect(view.plan.after.answers).toBe(runsNeeded * samples.samples_per_run * cells);
      expect(view.plan.after.answers).toBeGreaterThanOrEqual(view.plan.after.needed);
      expect(view.result_at).toBe(iso(changedAt + runs * DAY));
      expect(view.window.after_to).toBe(view.result_at);
      expect(["result", "inconclusive", "not_called"]).toContain(view.status);
      const off = (await h.call("getMonitoring", { key: t.key, params: { id: samples.schedule_id } })).json();
      expect(off.active).toBe(false);
      expect(off.next_run_at).toBeNull();

      const alerts = (await h.call("listAlerts", { key: t.key, query: { schedule_id: samples.schedule_id } })).json()
        .data;
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ rule: { type: "experiment_result" }, project_id: project.id });
      expect(alerts[0].message).toContain("Rewrote the buyer's guide");
      const events = await h.deps.db
        .selectFrom("events")
        .select(["type", "data"])
        .where("workspace_id", "=", t.workspace.id)
        .where("type", "=", "alert.triggered")
        .execute();
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0]?.data ?? "{}")).toMatchObject({
        object: { id: alerts[0].id, rule: { type: "experiment_result" } },
      });

      // 5. Every figure again, from the stored answers.
      const answers = await storedAnswers(project.id, view.window.before_from, view.result_at, view.engines);
      const overall = welchOnPrompts(answers, TREATED, changedAt);
      const scripted = welchOnPrompts(
        answers.filter((a) => a.engine === "scripted"),
        TREATED,
        changedAt,
      );
      expect(view.visibility.overall.status).toBe("estimate");
      expect(view.visibility.overall).toMatchObject({
        treated_prompts: TREATED.length,
        control_prompts: CONTROL.length,
      });
      expectFigures(view.visibility.overall, overall);
      expectFigures(view.visibility.by_engine.scripted, scripted);
      const before = answers.filter((a) => a.at < changedAt);
      const times = before.map((a) => a.at).sort((x, y) => x - y);
      const pre = welchOnPrompts(before, TREATED, times[Math.floor(times.length / 2)] as number);
      expect(view.pre_trend.diverging).toBe(pre.p < 0.05);
      expect(Math.abs(view.pre_trend.p_value - pre.p)).toBeLessThanOrEqual(1.0001e-4);
      // The status follows from the figures: not called on a pre-trend, else a result when p < 0.05.
      expect(view.status).toBe(pre.p < 0.05 ? "not_called" : overall.p < 0.05 ? "result" : "inconclusive");
      // The truth: +80 points on the scripted engine's treated prompts (its answers are seeded, so
      // this is the same on every run), about half that pooled with the sandbox's random answers.
      expect(scripted.effect).toBeGreaterThan(0.6);
      expect(scripted.p).toBeLessThan(0.001);
      expect(overall.effect).toBeGreaterThan(0.15);
      console.log(
        `[${h.dialect}] overall effect ${overall.effect.toFixed(4)} (${overall.low.toFixed(4)} to ${overall.high.toFixed(4)}), p = ${overall.p.toExponential(3)}; scripted ${scripted.effect.toFixed(4)} (${scripted.low.toFixed(4)} to ${scripted.high.toFixed(4)}), p = ${scripted.p.toExponential(3)}; pre-trend p = ${pre.p.toFixed(4)}; status ${view.status}; ${runs} runs of ${samples.samples_per_run} samples; plan ${plan.answers_per_prompt}/prompt/engine, ${plan.credits} credits, $${plan.cost_usd}`,
      );
      // The changed page's citations moved too: only answers naming the brand after the change cite it.
      expect(view.citations.status).toBe("estimate");
      expect(view.citations.effect).toBeGreaterThan(0);

      // 6. The report of the run that brought the result carries the experiment; the one before did not.
      const latest = (await h.call("getReport", { key: t.key, params: { id: reportIds.at(-1) as string } })).json();
      expect(latest.data.experiments).toEqual([
        expect.objectContaining({
          id: change.id,
          title: "Rewrote the buyer's guide",
          status: view.status,
          result_at: view.result_at,
          effect: view.visibility.overall.effect,
          ci_low: view.visibility.overall.ci_low,
          ci_high: view.visibility.overall.ci_high,
          p_value: view.visibility.overall.p_value,
        }),
      ]);
      expect(Math.abs(latest.data.experiments[0].effect - overall.effect)).toBeLessThanOrEqual(1.0001e-4);
      if (reportIds.length > 1) {
        const earlier = (await h.call("getReport", { key: t.key, params: { id: reportIds.at(-2) as string } })).json();
        expect(earlier.data.experiments).toBeUndefined();
      }

      // Frozen at the result: answers asked later change nothing.
      h.clock.set(changedAt + (runs + 1) * DAY);
      await analyze(t, project.id, 2);
      const frozen = (
        await h.call("getChange", { key: t.key, params: { id: project.id, change_id: change.id } })
      ).json();
      expect(frozen.visibility).toEqual(view.visibility);
      expect(frozen.result_at).toBe(view.result_at);
    });
  },
  {
    // `scripted` is declared as the operator's custom engine; the test points it at its fake.
    config: {
      engines: {
        ...defaultEngineConfig(),
        custom: [{ name: "scripted", baseUrl: "http://127.0.0.1:9", model: "scripted-1", apiKey: null }],
      },
    },
  },
);
