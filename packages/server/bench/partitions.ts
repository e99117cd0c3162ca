import { sql } from "kysely";
import pino from "pino";
import { createRuntime, type Runtime } from "../src/app/runtime.ts";
import { openDatabase } from "../src/db/database.ts";
import { migrateToLatest } from "../src/db/migrate.ts";
import { MIGRATIONS } from "../src/db/migrations/index.ts";
import { createAnalysis } from "../src/services/analyses/create.ts";
import { createApiKey } from "../src/services/api-keys/api-keys.ts";
import { failure } from "../src/services/engines/types.ts";
import { createProject } from "../src/services/projects/projects.ts";
import { insertResults, type NewResult } from "../src/services/results/store.ts";
import { moveResults } from "../src/services/retention/partitions.ts";
import { createWorkspace, workspaceContext } from "../src/services/workspaces/workspaces.ts";
import { freePort, SIGHTLINE_ENTRY, spawnServer } from "./processes.ts";

const ENGINES = ["chatgpt", "claude", "gemini", "perplexity", "deepseek", "grok", "sandbox"];

/** A brand with `analyses` analyses, the first `monthsBack` months ago and one per month after. */
async function seedBrand(runtime: Runtime, analyses: number, monthsBack: number) {
  const workspace = await createWorkspace(runtime.deps, { name: "Scale", plan: "agency" });
  const ctx = await workspaceContext(runtime.deps, workspace.id);
  const project = await createProject(ctx, {
    name: "Acme CRM",
    primary_domain: "acmecrm.com",
    prompts: ["best crm for startups"],
    engines: ["sandbox"],
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

/**
 * `count` answers in one statement per million, spread evenly over the analyses (and so over their
 * months), each an hour of its analysis's month apart from the next, as raw rows: the bench times
 * reads and the move, not the writer.
 */
async function insertAnswers(
  runtime: Runtime,
  brand: { workspaceId: string; projectId: string; analyses: string[] },
  count: number,
) {
  // Their months' partitions, as the workers' maintenance would have made them when they ran.
  await sql`SELECT sightline_results_partition(to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'))
    FROM analyses WHERE id = ANY(${brand.analyses}::text[])`.execute(runtime.deps.db);
  const chunk = 1_000_000;
  for (let start = 0; start < count; start += chunk) {
    const end = Math.min(count, start + chunk);
    await sql`INSERT INTO results (id, workspace_id, project_id, analysis_id, engine, prompt, prompt_index, sample,
        status, mentioned, brand_cited, citation_count, brand_citation_count, score_version, attempts, latency_ms,
        created_at, text, month)
      SELECT 'res_' || lpad(g::text, 24, '0'), ${brand.workspaceId}, ${brand.projectId},
        (${brand.analyses}::text[])[1 + g % ${brand.analyses.length}], (${ENGINES}::text[])[1 + g % ${ENGINES.length}],
        'best crm for startups', g, 0, 'succeeded', g % 3 = 0, g % 5 = 0, 2, 0, 'v1', 1, 900,
        a.created_at + ((g / ${brand.analyses.length}) % 600) * interval '1 hour',
        'Acme CRM and HubSpot are the usual picks for a startup; Pipedrive if sales matter most.',
        to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM')
      FROM generate_series(${start + 1}::bigint, ${end}::bigint) AS g
      JOIN analyses a ON a.id = (${brand.analyses}::text[])[1 + g % ${brand.analyses.length}]`.execute(runtime.deps.db);
  }
  await sql`ANALYZE results`.execute(runtime.deps.db);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * `size` answers in the partitioned layout (12 monthly partitions), then `GET /v1/results` over
 * HTTP, page after page down the cursor, one request at a time, with and without filters.
 */
export async function partitionedResultsPages(url: string, size: number): Promise<{ lines: string[]; p99: number }> {
  const runtime = await createRuntime({ database: { dialect: "postgres", url } }, pino({ level: "silent" }));
  const seeded = performance.now();
  let brand: Awaited<ReturnType<typeof seedBrand>>;
  try {
    brand = await seedBrand(runtime, 12, 11);
    await insertAnswers(runtime, brand, size);
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
  try {
    const headers = { authorization: `Bearer ${brand.key}` };
    for (const filter of [
      "",
      `project_id=${brand.projectId}`,
      "engine=chatgpt",
      `project_id=${brand.projectId}&engine=deepseek`,
    ]) {
      let cursor: string | null = null;
      const own: number[] = [];
      for (let page = 1; page <= 100; page++) {
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
      samples.push(...own);
      const sorted = [...own].sort((a, b) => a - b);
      lines.push(
        `GET /v1/results ${filter === "" ? "(no filter)" : filter.replace(brand.projectId, "<brand>")}: ${own.length} pages, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
      );
    }
  } finally {
    await server.stop();
  }
  const sorted = [...samples].sort((a, b) => a - b);
  lines.unshift(
    `${size.toLocaleString("en-US")} answers in 12 monthly partitions, seeded in ${seedSeconds.toFixed(0)} s`,
  );
  return { lines, p99: percentile(sorted, 99) };
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
