import { sql } from "kysely";
import pino from "pino";
import { createRuntime, type Runtime } from "../src/app/runtime.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrate.ts";
import { MIGRATIONS } from "../src/db/migrations/index.ts";
import { sha256Hex } from "../src/lib/crypto.ts";
import { createAnalysis } from "../src/services/analyses/create.ts";
import { COUNT_COLUMNS, promptKey } from "../src/services/analytics/rollups.ts";
import { createApiKey } from "../src/services/api-keys/api-keys.ts";
import { failure } from "../src/services/engines/types.ts";
import { createProject } from "../src/services/projects/projects.ts";
import { insertResults, type NewResult } from "../src/services/results/store.ts";
import { moveResults } from "../src/services/retention/partitions.ts";
import { createWorkspace, workspaceContext } from "../src/services/workspaces/workspaces.ts";
import { COMPETITORS, ENGINES, PROMPTS, timeEndpoints, URLS } from "./analytics.ts";
import { freePort, SIGHTLINE_ENTRY, spawnServer } from "./processes.ts";

/**
 * A brand with `analyses` analyses, the first `monthsBack` months ago and one per month after,
 * shaped as the analytics bench's brand (7 engines, 50 prompts, 3 competitors).
 */
async function seedBrand(runtime: Runtime, analyses: number, monthsBack: number) {
  const workspace = await createWorkspace(runtime.deps, { name: "Scale", plan: "agency" });
  const ctx = await workspaceContext(runtime.deps, workspace.id);
  const project = await createProject(ctx, {
    name: "Acme CRM",
    primary_domain: "acmecrm.com",
    competitors: COMPETITORS.map((name) => ({ name, domains: [`${name.toLowerCase().replace(/[^a-z]/g, "")}.com`] })),
    prompts: PROMPTS,
    engines: [...ENGINES],
  });
  const ids: string[] = [];
  const now = new Date();
  for (let i = 0; i < analyses; i++) {
    const analysis = await createAnalysis(ctx, { project_id: project.id });
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack + i, 2));
    await runtime.deps.db
      .updateTable("analyses")
      .set({ created_at: month.toISOString() })
      .where("id", "=", analysis.id)
      .execute();
    ids.push(analysis.id);
  }
  const key = (await createApiKey(runtime.deps, { workspaceId: workspace.id, name: "bench", scopes: ["read"] })).key;
  return { workspaceId: workspace.id, projectId: project.id, analyses: ids, key };
}

/** Each competitor's cited URLs: the analytics bench's, 30 to 89, twenty each. */
const COMPETITOR_URLS = COMPETITORS.map((name) => URLS.flatMap((url, i) => (url.competitor === name ? [i] : [])));

/**
 * `count` answers, written one analysis (one month) at a time, spread evenly over the analyses (and so over their
 * months), each an hour of its analysis's month apart from the next, and counted in the rollups as
 * the worker counts them: the bench times reads and the move, not the writer, so both are written
 * in SQL. Every figure of an answer follows from its number `g`: engine, prompt, whether the brand
 * and each competitor is named (a third, a half, a third, a quarter of answers) and at what
 * position, its sentiment and score, and its two cited URLs out of the analytics bench's 300.
 */
async function insertAnswers(
  runtime: Runtime,
  brand: { workspaceId: string; projectId: string; analyses: string[] },
  count: number,
) {
  const db = runtime.deps.db;
  // Their months' partitions, as the workers' maintenance would have made them when they ran.
  await sql`SELECT sightline_results_partition(to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'))
    FROM analyses WHERE id = ANY(${brand.analyses}::text[])`.execute(db);
  const prompts = PROMPTS.map((prompt) => ({ prompt, key: promptKey(prompt) }));
  const urls = URLS.map((url) => ({
    ...url,
    key: sha256Hex(url.url).slice(0, 24),
    kind: url.brand ? "brand" : url.competitor !== null ? "competitor" : "other",
  }));
  const n = brand.analyses.length;
  const own = (c: number) =>
    sql`((b.u1 BETWEEN ${COMPETITOR_URLS[c]?.[0] ?? -1} AND ${COMPETITOR_URLS[c]?.at(-1) ?? -1})::int
      + (b.u2 BETWEEN ${COMPETITOR_URLS[c]?.[0] ?? -1} AND ${COMPETITOR_URLS[c]?.at(-1) ?? -1})::int)`;
  const competitor = (c: number) =>
    sql`(${COMPETITORS[c]}::text, (b.g / ${c + 2}) % 2 = 0, ${own(c)}, ${c + 2}, NULL::double precision, 0::double precision)`;
  // The brand (subject "") and each competitor, per answer: named, own citations, position, sentiment.
  const subjects = sql`CROSS JOIN LATERAL (VALUES
      (''::text, b.mentioned, (b.u1 < 30)::int + (b.u2 < 30)::int, b.position, b.sentiment, b.score::double precision),
      ${competitor(0)}, ${competitor(1)}, ${competitor(2)}
    ) AS s(subject, named, cites, position, sentiment, score)`;
  const counts = sql`count(*) AS answers, sum(s.named::int) AS mentioned, sum((s.cites > 0)::int) AS cited,
    count(*) AS with_citations, sum(CASE WHEN s.named THEN s.position ELSE 0 END) AS position_sum,
    sum(CASE WHEN s.named AND s.position IS NOT NULL THEN 1 ELSE 0 END) AS position_count,
    coalesce(sum(s.sentiment), 0) AS sentiment_sum, count(s.sentiment) AS sentiment_count,
    sum(CASE WHEN s.subject = '' THEN 2 ELSE s.cites END) AS citations,
    sum(CASE WHEN s.subject = '' THEN s.cites ELSE 0 END) AS brand_citations, sum(s.score) AS score_sum`;
  const columns = COUNT_COLUMNS;
  const sums = sql.raw(columns.map((column) => `x.${column}`).join(", "));
  const add = (table: string) =>
    sql.raw(columns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(", "));
  const grains = sql`CROSS JOIN (VALUES ('day'), ('week')) AS gr(grain)`;
  const startOf = sql`CASE gr.grain WHEN 'day' THEN b.day ELSE b.week END`;
  const promptTable = sql`unnest(${prompts.map((p) => p.prompt)}::text[], ${prompts.map((p) => p.key)}::text[])
    WITH ORDINALITY AS p(prompt, prompt_key, n)`;
  const urlTable = sql`unnest(${urls.map((u) => u.url)}::text[], ${urls.map((u) => u.key)}::text[],
      ${urls.map((u) => u.domain)}::text[], ${urls.map((u) => u.kind)}::text[],
      ${urls.map((u) => (u.brand ? null : u.competitor))}::text[])
    WITH ORDINALITY AS u(url, url_key, domain, kind, competitor, n)`;
  const cited = sql`CROSS JOIN LATERAL (VALUES (b.u1), (b.u2)) AS c(i)`;
  // One analysis (so one month) at a time: its rollup rows are its own, written once rather than
  // added to again by every later batch. Answer g belongs to analysis g % n.
  for (let k = 0; k < n; k++) {
    const last = Math.floor((count - k) / n); // the largest j with j * n + k <= count
    // One transaction per analysis, with the memory to group its answers without spilling to disk.
    await db.transaction().execute(async (tx) => {
      await sql`SET LOCAL work_mem = '512MB'`.execute(tx);
      await sql`DROP TABLE IF EXISTS bench_answers`.execute(tx);
      await sql`CREATE UNLOGGED TABLE bench_answers AS
        SELECT g, x.analysis_id, x.engine, x.prompt_index, x.created_at, x.month,
          to_char(x.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
          to_char(date_trunc('week', x.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week,
          g % 3 = 0 AS mentioned,
          CASE WHEN g % 3 = 0 THEN 1 + (g / 3) % 3 END AS position,
          CASE WHEN g % 3 = 0 THEN ((g % 21) - 10) / 10.0 END AS sentiment,
          CASE WHEN g % 3 = 0 THEN 50 + g % 50 ELSE 0 END AS score,
          g % 300 AS u1, (g % 300 + 1 + (g / 300) % 299) % 300 AS u2
        FROM generate_series(${k === 0 ? 1 : 0}::bigint, ${last}::bigint) AS j
        CROSS JOIN LATERAL (SELECT j * ${n} + ${k} AS g) AS answer
        CROSS JOIN LATERAL (
          SELECT a.id AS analysis_id, (${ENGINES}::text[])[1 + g % ${ENGINES.length}] AS engine,
            (g / 84) % ${prompts.length} AS prompt_index,
            a.created_at + ((g / ${n}) % 600) * interval '1 hour' AS created_at,
            to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month
          FROM analyses a WHERE a.id = (${brand.analyses}::text[])[1 + g % ${n}]
        ) AS x`.execute(tx);
      await sql`INSERT INTO results (id, workspace_id, project_id, analysis_id, engine, prompt, prompt_index, sample,
          status, mentioned, position, sentiment, brand_cited, citation_count, brand_citation_count, score,
          score_version, attempts, latency_ms, created_at, text, month, rolled_up)
        SELECT 'res_' || lpad(g::text, 24, '0'), ${brand.workspaceId}, ${brand.projectId}, analysis_id, engine,
          (${prompts.map((p) => p.prompt)}::text[])[1 + prompt_index], prompt_index, g, 'succeeded', mentioned,
          position, sentiment, u1 < 30 OR u2 < 30, 2, (u1 < 30)::int + (u2 < 30)::int, score, 'v1', 1, 900,
          created_at, 'Acme CRM and HubSpot are the usual picks for a startup; Pipedrive if sales matter most.',
          month, true
        FROM bench_answers`.execute(tx);
      await sql`INSERT INTO result_rollups (project_id, grain, start, engine, prompt_key, subject, workspace_id,
          prompt, ${sql.raw(columns.join(", "))})
        SELECT ${brand.projectId}, x.grain, x.start, x.engine, p.prompt_key, x.subject, ${brand.workspaceId},
          p.prompt, ${sums}
        FROM (
          SELECT gr.grain, ${startOf} AS start, b.engine, b.prompt_index, s.subject, ${counts}
          FROM bench_answers b ${grains} ${subjects}
          GROUP BY 1, 2, 3, 4, 5
        ) AS x JOIN ${promptTable} ON p.n = x.prompt_index + 1
        ON CONFLICT (project_id, grain, start, engine, prompt_key, subject) DO UPDATE SET ${add("result_rollups")}`.execute(
        tx,
      );
      await sql`INSERT INTO engine_rollups (project_id, day, engine, subject, workspace_id, ${sql.raw(columns.join(", "))})
        SELECT ${brand.projectId}, x.day, x.engine, x.subject, ${brand.workspaceId}, ${sums}
        FROM (
          SELECT b.day, b.engine, s.subject, ${counts} FROM bench_answers b ${subjects} GROUP BY 1, 2, 3
        ) AS x
        ON CONFLICT (project_id, day, engine, subject) DO UPDATE SET ${add("engine_rollups")}`.execute(tx);
      await sql`INSERT INTO source_rollups (project_id, grain, start, engine, url_key, workspace_id, url, domain, kind,
          competitor, citations, answers)
        SELECT ${brand.projectId}, x.grain, x.start, x.engine, u.url_key, ${brand.workspaceId}, u.url, u.domain,
          u.kind, u.competitor, x.citations, x.citations
        FROM (
          SELECT gr.grain, ${startOf} AS start, b.engine, c.i, count(*) AS citations
          FROM bench_answers b ${grains} ${cited} GROUP BY 1, 2, 3, 4
        ) AS x JOIN ${urlTable} ON u.n = x.i + 1
        ON CONFLICT (project_id, grain, start, engine, url_key) DO UPDATE SET
          citations = source_rollups.citations + excluded.citations, answers = source_rollups.answers + excluded.answers`.execute(
        tx,
      );
      await sql`INSERT INTO source_totals (project_id, grain, start, url_key, workspace_id, url, domain, kind,
          competitor, citations, answers)
        SELECT ${brand.projectId}, x.grain, x.start, u.url_key, ${brand.workspaceId}, u.url, u.domain,
          u.kind, u.competitor, x.citations, x.citations
        FROM (
          SELECT gr.grain, ${startOf} AS start, c.i, count(*) AS citations
          FROM bench_answers b ${grains} ${cited} GROUP BY 1, 2, 3
        ) AS x JOIN ${urlTable} ON u.n = x.i + 1
        ON CONFLICT (project_id, grain, start, url_key) DO UPDATE SET
          citations = source_totals.citations + excluded.citations, answers = source_totals.answers + excluded.answers`.execute(
        tx,
      );
    });
  }
  await sql`DROP TABLE IF EXISTS bench_answers`.execute(db);
  await sql`ANALYZE`.execute(db);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * `size` answers in the partitioned layout (12 monthly partitions) with their rollups, then over
 * HTTP, one request at a time: `GET /v1/results` page after page down the cursor, with and without
 * filters (after ten untimed pages of each), and the analytics bench's five analytics requests over
 * the last 90 days.
 */
export async function partitionedReads(
  url: string,
  size: number,
): Promise<{ lines: string[]; p99: number; analyticsP95: number }> {
  const runtime = await createRuntime({ database: { dialect: "postgres", url } }, pino({ level: "silent" }));
  const seeded = performance.now();
  let brand: Awaited<ReturnType<typeof seedBrand>>;
  let rollups: string;
  try {
    brand = await seedBrand(runtime, 12, 11);
    await insertAnswers(runtime, brand, size);
    const counted = await sql<{ answers: string; rows: string; sources: string }>`SELECT
        (SELECT sum(answers) FROM engine_rollups WHERE subject = '') AS answers,
        (SELECT count(*) FROM result_rollups) AS rows, (SELECT count(*) FROM source_rollups) AS sources`.execute(
      runtime.deps.db,
    );
    const row = counted.rows[0];
    if (Number(row?.answers) !== size) throw new Error(`the rollups count ${row?.answers} answers, not ${size}`);
    rollups = `${Number(row?.rows).toLocaleString("en-US")} answer and ${Number(row?.sources).toLocaleString("en-US")} source rollup rows`;
  } finally {
    await runtime.close();
  }
  const seedSeconds = (performance.now() - seeded) / 1000;
  const port = await freePort();
  const server = await spawnServer(
    SIGHTLINE_ENTRY,
    ["serve"],
    { DATABASE_URL: url, PORT: String(port), LOG_LEVEL: "warn", SIGHTLINE_RATE_LIMITS: "off" },
    { healthUrl: `http://127.0.0.1:${port}/healthz` },
  );
  const samples: number[] = [];
  const lines: string[] = [];
  let analyticsP95 = 0;
  try {
    const headers = { authorization: `Bearer ${brand.key}` };
    const filters = [
      "",
      `project_id=${brand.projectId}`,
      "engine=chatgpt",
      `project_id=${brand.projectId}&engine=deepseek`,
    ];
    /** Each page's time, `pages` pages down the cursor of `filter`, one request at a time. */
    const walk = async (filter: string, pages: number): Promise<number[]> => {
      let cursor: string | null = null;
      const own: number[] = [];
      for (let page = 1; page <= pages; page++) {
        const query = [filter, "limit=20", cursor === null ? "" : `cursor=${encodeURIComponent(cursor)}`]
          .filter(Boolean)
          .join("&");
        const started = performance.now();
        const response = await fetch(`${server.url}/v1/results?${query}`, { headers });
        const body = await response.text();
        own.push(performance.now() - started);
        if (response.status !== 200) throw new Error(`results ${query}: ${response.status} ${body.slice(0, 200)}`);
        cursor = (JSON.parse(body) as { next_cursor: string | null }).next_cursor;
        if (cursor === null) break;
      }
      return own;
    };
    // As the analytics requests are, after a warm-up: the server just started, its first requests
    // compile its code and open its connections (the very first page takes 100 to 200 ms).
    for (const filter of filters) await walk(filter, 10);
    for (const filter of filters) {
      const own = await walk(filter, 100);
      samples.push(...own);
      const sorted = [...own].sort((a, b) => a - b);
      lines.push(
        `GET /v1/results ${filter === "" ? "(no filter)" : filter.replace(brand.projectId, "<brand>")}: ${own.length} pages, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
      );
    }
    lines.push("analytics over the last 90 days (p50 and p95 of 100 requests each, after 10 to warm up):");
    for (const timing of await timeEndpoints(server, brand, new Date())) {
      lines.push(`  ${timing.name}: p50 ${timing.p50.toFixed(1)} ms, p95 ${timing.p95.toFixed(1)} ms`);
      analyticsP95 = Math.max(analyticsP95, timing.p95);
    }
  } finally {
    await server.stop();
  }
  const sorted = [...samples].sort((a, b) => a - b);
  lines.unshift(
    `${size.toLocaleString("en-US")} answers in 12 monthly partitions and counted in the rollups (${rollups}), seeded in ${seedSeconds.toFixed(0)} s`,
  );
  return { lines, p99: percentile(sorted, 99), analyticsP95 };
}

/**
 * `size` answers in the previous release's single table, then this release's migration, then the
 * move while an answer is written every 10 ms: the copy's time and the swap's.
 */
export async function partitionMove(url: string, size: number): Promise<string[]> {
  const before = openDatabase({ dialect: "postgres", url });
  await migrateToLatest(
    before,
    MIGRATIONS.filter((m) => m.name < "2026-11-28-01"),
  );
  await before.close();
  const runtime = await createRuntime({ database: { dialect: "postgres", url } }, pino({ level: "silent" }), {
    migrate: false,
  });
  try {
    const brand = await seedBrand(runtime, 3, 2);
    // The previous layout has no month column: leave it out.
    await sql`INSERT INTO results (id, workspace_id, project_id, analysis_id, engine, prompt, prompt_index, sample,
        status, mentioned, brand_cited, citation_count, brand_citation_count, score_version, attempts, latency_ms,
        created_at, text)
      SELECT 'res_' || lpad(g::text, 24, '0'), ${brand.workspaceId}, ${brand.projectId},
        (${brand.analyses}::text[])[1 + g % 3], 'sandbox', 'p', g, 0, 'succeeded', false, false, 0, 0, 'v1', 1, 10,
        now() - g * interval '1 second', 'Acme CRM and HubSpot are the usual picks.'
      FROM generate_series(1, ${size}) AS g`.execute(runtime.deps.db);
    await migrateToLatest(runtime.database);
    const analysis = await runtime.deps.db
      .selectFrom("analyses")
      .selectAll()
      .where("id", "=", brand.analyses[2] as string)
      .executeTakeFirstOrThrow();
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const answer: NewResult = {
          analysis,
          engine: "sandbox",
          prompt: "p",
          promptIndex: size + written,
          sample: 0,
          outcome: failure("written during the move") as NewResult["outcome"],
          attempts: 1,
          latencyMs: 1,
          costMicros: null,
          createdAt: new Date().toISOString(),
        };
        await insertResults(runtime.deps, [answer]);
        written++;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const started = performance.now();
    let copied = 0;
    for (;;) {
      const progress = await moveResults(runtime.deps, { budgetMs: 10_000 });
      copied += progress.copied;
      if (progress.copied === 0) break;
    }
    const copySeconds = (performance.now() - started) / 1000;
    writing = false;
    await writer;
    const swapStarted = performance.now();
    await moveResults(runtime.deps, { budgetMs: Number.POSITIVE_INFINITY, finish: true });
    const swapSeconds = (performance.now() - swapStarted) / 1000;
    return [
      `moving ${size.toLocaleString("en-US")} answers into monthly partitions: ${copySeconds.toFixed(1)} s of copying (${copied.toLocaleString("en-US")} rows, while ${written} answers were written), then a swap of ${swapSeconds.toFixed(2)} s`,
    ];
  } finally {
    await runtime.close();
  }
}
