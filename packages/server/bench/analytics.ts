import { sql } from "kysely";
import pino from "pino";
import { createRuntime } from "../src/app/runtime.ts";
import type { DatabaseConfig } from "../src/config/database-url.ts";
import { newId } from "../src/lib/ids.ts";
import { toJson } from "../src/lib/json.ts";
import { countAnswers } from "../src/services/analytics/rollups.ts";
import { createApiKey } from "../src/services/api-keys/api-keys.ts";
import { inTransaction } from "../src/services/context.ts";
import { SCORE_VERSION } from "../src/services/measurement/score.ts";
import type { AnswerMeasure, CitationFound } from "../src/services/measurement/types.ts";
import { createProject } from "../src/services/projects/projects.ts";
import { createWorkspace, workspaceContext } from "../src/services/workspaces/workspaces.ts";
import { type Child, freePort, SIGHTLINE_ENTRY, spawnServer } from "./processes.ts";

/**
 * The analytics endpoints over a 90-day range, and `GET /v1/results` page after page, on one brand
 * with 7 engines, 50 prompts, 3 competitors and 300 cited URLs, at 10,000 stored answers and again
 * after growing the same database to 1,000,000. Answers are written as the worker writes them: the result rows and their
 * counts in the rollups, in one transaction per batch. Requests go over HTTP to `sightline serve`,
 * one at a time, so that each figure is one request's latency.
 */
const DAYS = 90;
export const ENGINES = ["sandbox", "chatgpt", "claude", "gemini", "perplexity", "grok", "deepseek"] as const;
export const PROMPTS = Array.from(
  { length: 50 },
  (_, i) => `best crm for ${["agencies", "startups", "freelancers", "nonprofits", "retail"][i % 5]}, question ${i}`,
);
export const COMPETITORS = ["HubSpot", "Pipedrive", "Zoho CRM"] as const;
const BATCH = 500;
const WARMUP = 10;
const SAMPLES = 100;
/** `GET /v1/results` is walked this many pages deep (20 per page) under each filter. */
const RESULT_PAGES = 501;

/** A small deterministic generator (mulberry32): the same data on every run and dialect. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 300 cited URLs: 30 on the brand's domain, 20 on each competitor's, the rest elsewhere. */
export const URLS: CitationFound[] = Array.from({ length: 300 }, (_, i) => {
  if (i < 30)
    return { url: `https://acmecrm.com/page-${i}`, domain: "acmecrm.com", title: null, brand: true, competitor: null };
  if (i < 90) {
    const competitor = COMPETITORS[Math.floor((i - 30) / 20)] ?? "HubSpot";
    const domain = `${competitor.toLowerCase().replace(/[^a-z]/g, "")}.com`;
    return { url: `https://${domain}/page-${i}`, domain, title: null, brand: false, competitor };
  }
  const domain = `site${i % 40}.example.com`;
  return { url: `https://${domain}/article-${i}`, domain, title: null, brand: false, competitor: null };
});

function measureOf(next: () => number, engineIndex: number): AnswerMeasure {
  const mentioned = next() < 0.3 + engineIndex * 0.1;
  const competitors = COMPETITORS.map((name, i) => ({
    name,
    mentioned: next() < 0.5 - i * 0.1,
    position: null as number | null,
    mentions: 0,
  }));
  const named = [...(mentioned ? ["brand"] : []), ...competitors.filter((c) => c.mentioned).map((c) => c.name)].sort(
    () => next() - 0.5,
  );
  for (const competitor of competitors) {
    if (!competitor.mentioned) continue;
    competitor.position = named.indexOf(competitor.name) + 1;
    competitor.mentions = 1 + Math.floor(next() * 3);
  }
  const citations = Array.from({ length: Math.floor(next() * 4) }, () => URLS[Math.floor(next() * URLS.length)]).filter(
    (c): c is CitationFound => c !== undefined,
  );
  const brandCited = citations.some((c) => c.brand);
  return {
    brand: {
      name: "Acme CRM",
      mentioned,
      position: mentioned ? named.indexOf("brand") + 1 : null,
      mentions: mentioned ? 1 + Math.floor(next() * 3) : 0,
      sentiment: mentioned ? Math.round((next() * 2 - 1) * 100) / 100 : null,
    },
    competitors,
    citations,
    citation_source: citations.length > 0 ? "engine" : "none",
    brand_cited: brandCited,
    score: mentioned ? Math.round(next() * 1000) / 10 : 0,
    score_version: SCORE_VERSION,
  };
}

interface Seeded {
  workspaceId: string;
  projectId: string;
  key: string;
  /** One analysis per day, and the next sample number to use in it. */
  analyses: { id: string; day: string; next: number }[];
  stored: number;
}

async function seedProject(database: DatabaseConfig, now: Date): Promise<Seeded> {
  const runtime = await createRuntime({ database }, pino({ level: "silent" }));
  try {
    const workspace = await createWorkspace(runtime.deps, { name: "Analytics bench", plan: "agency" });
    const ctx = await workspaceContext(runtime.deps, workspace.id);
    const project = await createProject(ctx, {
      name: "Acme CRM",
      primary_domain: "acmecrm.com",
      competitors: COMPETITORS.map((name) => ({ name, domains: [`${name.toLowerCase().replace(/[^a-z]/g, "")}.com`] })),
      prompts: PROMPTS,
      engines: [...ENGINES],
    });
    const analyses = [];
    for (let d = DAYS; d >= 1; d--) {
      const day = new Date(now.getTime() - d * 86_400_000).toISOString().slice(0, 10);
      const at = `${day}T06:00:00.000Z`;
      const id = newId("ana");
      await runtime.deps.db
        .insertInto("analyses")
        .values({
          id,
          workspace_id: workspace.id,
          project_id: project.id,
          status: "completed",
          trigger: "monitoring",
          schedule_id: null,
          engines: toJson(ENGINES),
          prompts: toJson(PROMPTS),
          samples: 1,
          country: null,
          language: null,
          total_answers: 0,
          credits_reserved: 0,
          credits_released: 0,
          errors: "[]",
          summary: null,
          score_version: SCORE_VERSION,
          created_at: at,
          started_at: at,
          completed_at: at,
          updated_at: at,
        })
        .execute();
      analyses.push({ id, day, next: 0 });
    }
    const key = await createApiKey(runtime.deps, { workspaceId: workspace.id, name: "bench", scopes: ["read"] });
    return { workspaceId: workspace.id, projectId: project.id, key: key.key, analyses, stored: 0 };
  } finally {
    await runtime.close();
  }
}

/** Adds answers until `target` are stored: spread evenly over the days, random engine and prompt. */
async function growTo(database: DatabaseConfig, seeded: Seeded, target: number): Promise<number> {
  const started = performance.now();
  const runtime = await createRuntime({ database }, pino({ level: "silent" }));
  try {
    const ctx = await workspaceContext(runtime.deps, seeded.workspaceId);
    const next = random(seeded.stored + 1);
    const toAdd = target - seeded.stored;
    // Day by day, so that each batch adds to the same few rollup rows, as a day's analyses do.
    const plan = seeded.analyses.map((analysis, i) => ({
      analysis,
      count: Math.floor((toAdd * (i + 1)) / DAYS) - Math.floor((toAdd * i) / DAYS),
    }));
    let pending: {
      row: Record<string, unknown>;
      measure: AnswerMeasure;
      engine: string;
      prompt: string;
      at: string;
    }[] = [];
    const flush = async () => {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      await inTransaction(ctx, async (tx) => {
        await tx.db
          .insertInto("results")
          .values(batch.map((item) => item.row) as never)
          .execute();
        await countAnswers(
          tx.db,
          batch.map((item) => ({
            workspace_id: seeded.workspaceId,
            project_id: seeded.projectId,
            engine: item.engine,
            prompt: item.prompt,
            created_at: item.at,
            measure: item.measure,
          })),
        );
      });
    };
    for (const { analysis, count } of plan) {
      for (let i = 0; i < count; i++) {
        const engineIndex = Math.floor(next() * ENGINES.length);
        const promptIndex = Math.floor(next() * PROMPTS.length);
        const engine = ENGINES[engineIndex] ?? "sandbox";
        const prompt = PROMPTS[promptIndex] ?? "";
        const measure = measureOf(next, engineIndex);
        const at = `${analysis.day}T${String(6 + (Math.floor(i / 3600) % 18)).padStart(2, "0")}:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.000Z`;
        pending.push({
          engine,
          prompt,
          at,
          measure,
          row: {
            id: newId("res"),
            workspace_id: seeded.workspaceId,
            project_id: seeded.projectId,
            analysis_id: analysis.id,
            engine,
            model: `${engine}-model`,
            prompt,
            prompt_index: promptIndex,
            sample: analysis.next++,
            status: "succeeded",
            error: null,
            text: `Here are the CRMs people use most: ${measure.competitors
              .filter((c) => c.mentioned)
              .map((c) => c.name)
              .join(", ")}${measure.brand.mentioned ? " and Acme CRM" : ""}.`,
            measure: toJson(measure),
            mentioned: measure.brand.mentioned,
            position: measure.brand.position,
            sentiment: measure.brand.sentiment,
            brand_cited: measure.brand_cited,
            citation_count: measure.citations.length,
            brand_citation_count: measure.citations.filter((c) => c.brand).length,
            score: measure.score,
            score_version: SCORE_VERSION,
            attempts: 1,
            latency_ms: 800,
            created_at: at,
            rolled_up: true,
          },
        });
        if (pending.length >= BATCH) await flush();
      }
    }
    await flush();
    seeded.stored = target;
    // Fresh planner statistics, as autovacuum keeps them on a PostgreSQL server with its defaults
    // (the bench's local server runs with autovacuum off: without this, the planner still sees
    // the table as it was before growing and picks plans for a few thousand rows).
    if (database.dialect === "postgres") await sql`analyze`.execute(runtime.deps.db);
    return (performance.now() - started) / 1000;
  } finally {
    await runtime.close();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export interface Timing {
  name: string;
  p50: number;
  p95: number;
  bytes: number;
}

export async function timeEndpoints(
  server: Child,
  seeded: Pick<Seeded, "projectId" | "key">,
  now: Date,
): Promise<Timing[]> {
  const to = now.toISOString();
  const from = new Date(now.getTime() - DAYS * 86_400_000).toISOString();
  const range = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
  const base = `${server.url}/v1/projects/${seeded.projectId}`;
  const targets = [
    { name: "metrics, by day", url: `${base}/metrics?${range}&interval=day` },
    { name: "metrics, by week, one engine", url: `${base}/metrics?${range}&interval=week&engine=chatgpt` },
    { name: "prompts × engines", url: `${base}/prompts/metrics?${range}` },
    { name: "sources (top 20)", url: `${base}/sources?${range}` },
    { name: "competitors", url: `${base}/competitors?${range}` },
  ];
  const headers = { authorization: `Bearer ${seeded.key}` };
  const timings: Timing[] = [];
  for (const target of targets) {
    let bytes = 0;
    const samples: number[] = [];
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const started = performance.now();
      const response = await fetch(target.url, { headers });
      const body = await response.text();
      const elapsed = performance.now() - started;
      if (response.status !== 200) throw new Error(`${target.name}: ${response.status} ${body.slice(0, 300)}`);
      if (i >= WARMUP) samples.push(elapsed);
      bytes = body.length;
    }
    samples.sort((a, b) => a - b);
    timings.push({ name: target.name, p50: percentile(samples, 50), p95: percentile(samples, 95), bytes });
  }
  return timings;
}

interface PageTiming {
  name: string;
  first: number;
  last: number;
  p50: number;
  p99: number;
  samples: number[];
}

/**
 * Walks `GET /v1/results` from its first page to page RESULT_PAGES by `next_cursor`, under each
 * filter, timing every page: the first page, the deepest, and the percentiles of all of them.
 */
async function timeResultPages(server: Child, seeded: Seeded): Promise<PageTiming[]> {
  const headers = { authorization: `Bearer ${seeded.key}` };
  const filters = [
    { name: "no filter", query: "" },
    { name: "project_id", query: `project_id=${seeded.projectId}` },
    { name: "engine=chatgpt", query: "engine=chatgpt" },
    { name: "project_id + engine=deepseek", query: `project_id=${seeded.projectId}&engine=deepseek` },
    { name: "mentioned=true", query: "mentioned=true" },
    { name: "prompt= (one of 50)", query: `prompt=${encodeURIComponent(PROMPTS[7] ?? "")}` },
  ];
  const timings: PageTiming[] = [];
  for (const filter of filters) {
    const samples: number[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= RESULT_PAGES; page++) {
      const query = [filter.query, "limit=20", cursor === null ? "" : `cursor=${encodeURIComponent(cursor)}`]
        .filter((part) => part !== "")
        .join("&");
      const started = performance.now();
      const response = await fetch(`${server.url}/v1/results?${query}`, { headers });
      const body = await response.text();
      samples.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`results, ${filter.name}: ${response.status} ${body.slice(0, 300)}`);
      cursor = (JSON.parse(body) as { next_cursor: string | null }).next_cursor;
      if (cursor === null) break;
    }
    const sorted = [...samples].sort((a, b) => a - b);
    timings.push({
      name: filter.name,
      first: samples[0] ?? Number.NaN,
      last: samples[samples.length - 1] ?? Number.NaN,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      samples,
    });
  }
  return timings;
}

async function serve(databaseUrl: string, plansFile: string): Promise<Child> {
  const port = await freePort();
  return spawnServer(
    SIGHTLINE_ENTRY,
    ["serve"],
    { DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: "warn", SIGHTLINE_PLANS: plansFile },
    { healthUrl: `http://127.0.0.1:${port}/healthz` },
  );
}

async function countRollups(database: DatabaseConfig): Promise<string> {
  const runtime = await createRuntime({ database }, pino({ level: "silent" }));
  try {
    const count = async (table: "results" | "result_rollups" | "source_rollups") =>
      Number(
        (
          await runtime.deps.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const answers = await count("results");
    // What an answer costs on disk, indexes included: PostgreSQL's own measure of the table, the
    // whole database file on SQLite (rollups and all).
    const bytes =
      database.dialect === "postgres"
        ? Number(
            (await sql<{ b: string }>`select pg_total_relation_size('results') as b`.execute(runtime.deps.db)).rows[0]
              ?.b ?? 0,
          )
        : Number(
            (
              await sql<{
                b: number;
              }>`select page_count * page_size as b from pragma_page_count(), pragma_page_size()`.execute(
                runtime.deps.db,
              )
            ).rows[0]?.b ?? 0,
          );
    const per = answers === 0 ? 0 : bytes / answers;
    return `${(await count("result_rollups")).toLocaleString("en-US")} answer and ${(await count("source_rollups")).toLocaleString("en-US")} source rollup rows; ${database.dialect === "postgres" ? "the results table with its indexes" : "the database file"}: ${(bytes / 1_048_576).toFixed(0)} MB, ${per.toFixed(0)} bytes per answer`;
  } finally {
    await runtime.close();
  }
}

/** Lines for the report: at each size, the seeding time, then p50/p95 per endpoint. */
export async function analyticsBenchmarks(
  label: string,
  database: DatabaseConfig,
  databaseUrl: string,
  plansFile: string,
  sizes: readonly number[],
): Promise<{ lines: string[]; worstP95AtLargest: number; resultsP99AtLargest: number }> {
  const now = new Date();
  const seeded = await seedProject(database, now);
  const lines: string[] = [];
  let worst = 0;
  let resultsP99 = 0;
  for (const size of sizes) {
    const seconds = await growTo(database, seeded, size);
    const rows = await countRollups(database);
    lines.push(
      `${label}, ${size.toLocaleString("en-US")} results (grown in ${seconds.toFixed(1)} s, results and rollups together; ${rows}):`,
    );
    const server = await serve(databaseUrl, plansFile);
    try {
      for (const timing of await timeEndpoints(server, seeded, now)) {
        lines.push(
          `  ${timing.name.padEnd(30)} p50 ${timing.p50.toFixed(1).padStart(7)} ms   p95 ${timing.p95.toFixed(1).padStart(7)} ms   ${(timing.bytes / 1024).toFixed(0).padStart(5)} kB`,
        );
        if (size === sizes[sizes.length - 1]) worst = Math.max(worst, timing.p95);
      }
      lines.push(`  GET /v1/results, pages 1 to ${RESULT_PAGES} by cursor (20 per page):`);
      const pages = await timeResultPages(server, seeded);
      for (const timing of pages) {
        lines.push(
          `    ${timing.name.padEnd(30)} first ${timing.first.toFixed(1).padStart(6)} ms   page ${timing.samples.length} ${timing.last.toFixed(1).padStart(6)} ms   p50 ${timing.p50.toFixed(1).padStart(6)} ms   p99 ${timing.p99.toFixed(1).padStart(6)} ms`,
        );
      }
      const all = pages.flatMap((timing) => timing.samples).sort((a, b) => a - b);
      if (size === sizes[sizes.length - 1]) resultsP99 = percentile(all, 99);
    } finally {
      await server.stop();
    }
  }
  return { lines, worstP95AtLargest: worst, resultsP99AtLargest: resultsP99 };
}
