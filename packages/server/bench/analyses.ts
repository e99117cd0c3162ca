import { createServer } from "node:http";
import { join } from "node:path";
import pino from "pino";
import { createRuntime } from "../src/app/runtime.ts";
import { defaultEngineConfig } from "../src/config/engines.ts";
import { createAnalysis } from "../src/services/analyses/create.ts";
import { compileProject, measureAnswer } from "../src/services/measurement/measure.ts";
import type { MeasuredProject } from "../src/services/measurement/types.ts";
import { createProject } from "../src/services/projects/projects.ts";
import { createWorkspace, workspaceContext } from "../src/services/workspaces/workspaces.ts";
import { SIGHTLINE_ENTRY, spawnServer } from "./processes.ts";

const LATENCY_MS = 200;
const CONCURRENCY = 32;
const ANSWER =
  "Here are the CRMs agencies use most:\n\n1. **HubSpot** – free tier, great marketing tools.\n2. **Acme CRM** – affordable and easy to set up.\n3. **Pipedrive** – a clean sales pipeline.\n\nSee https://www.g2.com/categories/crm for reviews.";

interface SlowEngine {
  url: string;
  requests: () => number;
  /** Requests refused with 429 because more than `limit` were in flight. */
  refused: () => number;
  stop(): Promise<void>;
}

/**
 * An OpenAI-compatible chat server that answers every request after LATENCY_MS; with a `limit`,
 * it enforces a vendor's concurrency limit: a request beyond it gets 429 with Retry-After: 1.
 */
async function slowEngine(limit = Number.POSITIVE_INFINITY): Promise<SlowEngine> {
  let requests = 0;
  let refused = 0;
  let inFlight = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (inFlight >= limit) {
        refused++;
        res
          .writeHead(429, { "content-type": "application/json", "retry-after": "1" })
          .end(
            JSON.stringify({ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }),
          );
        return;
      }
      requests++;
      inFlight++;
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: `chatcmpl-${requests}`,
            object: "chat.completion",
            created: Math.floor(Date.now() / 1000),
            model: "bench-model",
            choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: ANSWER } }],
          }),
        );
      }, LATENCY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    refused: () => refused,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Polls the analysis until it ends; its run time from start to completion, in seconds. */
async function waitForAnalysis(db: Awaited<ReturnType<typeof createRuntime>>["deps"]["db"], id: string) {
  const read = () => db.selectFrom("analyses").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  let row = await read();
  const deadline = Date.now() + 180_000;
  while (row.status !== "completed" && row.status !== "failed" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    row = await read();
  }
  if (row.started_at === null || row.completed_at === null) throw new Error(`analysis ended ${row.status}`);
  const answers = await db
    .selectFrom("results")
    .select((eb) => [eb.fn.min("created_at").as("first"), eb.fn.max("created_at").as("last")])
    .where("analysis_id", "=", id)
    .executeTakeFirstOrThrow();
  const start = Date.parse(row.started_at);
  const at = (iso: string | null) => (iso === null ? Number.NaN : (Date.parse(iso) - start) / 1000);
  return {
    seconds: (Date.parse(row.completed_at) - start) / 1000,
    status: row.status,
    // Where the time went: the first and last answers stored, and the end, from the start.
    timeline: `first answer stored at +${at(answers.first as string | null).toFixed(2)} s, last at +${at(answers.last as string | null).toFixed(2)} s, completed at +${at(row.completed_at).toFixed(2)} s`,
  };
}

/**
 * One analysis of `prompts` prompts × 10 samples on the given OpenAI-compatible engines, through a
 * worker process started with `env`, on a fresh SQLite database, after a warm-up analysis of 32
 * prompts × 1 sample per engine: the measured one's run time and final status.
 */
async function timedAnalysis(
  dir: string,
  file: string,
  vendors: { name: string; url: string }[],
  prompts: number,
  env: Record<string, string>,
): Promise<{ seconds: number; status: string; timeline: string }> {
  const path = join(dir, file);
  const engines = {
    ...defaultEngineConfig(),
    custom: vendors.map((v) => ({ name: v.name, baseUrl: v.url, model: "bench-model", apiKey: null })),
  };
  const runtime = await createRuntime(
    { database: { dialect: "sqlite", path }, dataDir: dir, engines },
    pino({ level: "silent" }),
  );
  const worker = await spawnServer(
    SIGHTLINE_ENTRY,
    ["worker"],
    {
      DATABASE_URL: `sqlite:${path}`,
      SIGHTLINE_DATA_DIR: dir,
      SIGHTLINE_CUSTOM_ENGINES: JSON.stringify(
        vendors.map((v) => ({ name: v.name, base_url: v.url, model: "bench-model" })),
      ),
      SIGHTLINE_JOB_POLL_MS: "50",
      LOG_LEVEL: "info",
      ...env,
    },
    { stdout: /Sightline worker (\S+) running/ },
  );
  try {
    const workspace = await createWorkspace(runtime.deps, { name: "Analysis bench", plan: "agency" });
    const ctx = await workspaceContext(runtime.deps, workspace.id);
    const project = await createProject(ctx, {
      name: "Acme CRM",
      primary_domain: "acmecrm.com",
      competitors: [{ name: "HubSpot" }, { name: "Pipedrive" }],
      prompts: Array.from({ length: prompts }, (_, i) => `best CRM for agencies, question ${i}`),
      engines: vendors.map((v) => v.name),
    });
    // A warm-up first, as the HTTP benches have theirs: a worker that has run for a while has its
    // code compiled and its connections to the vendors open; a fresh process pays for both in its
    // first answers (about 150 ms on the first 32 answers, measured).
    const warmUp = await createAnalysis(ctx, {
      project_id: project.id,
      samples: 1,
      prompts: project.prompts.slice(0, 32),
    });
    await waitForAnalysis(runtime.deps.db, warmUp.id);
    const queued = await createAnalysis(ctx, { project_id: project.id, samples: 10 });
    return await waitForAnalysis(runtime.deps.db, queued.id);
  } finally {
    await worker.stop();
    await runtime.close();
  }
}

/**
 * 1,000 answers (100 prompts × 10 samples) from an engine answering in 200 ms, 32 at a time,
 * through a worker process: the ideal is 1,000 / 32 × 0.2 s = 6.25 s.
 */
export async function analysisThroughput(dir: string): Promise<{ lines: string[]; ratio: number }> {
  const engine = await slowEngine();
  try {
    const { seconds, status, timeline } = await timedAnalysis(
      dir,
      "analyses.db",
      [{ name: "bench_engine", url: engine.url }],
      100,
      {
        SIGHTLINE_ENGINE_CONCURRENCY: String(CONCURRENCY),
      },
    );
    const ideal = (1_000 / CONCURRENCY) * (LATENCY_MS / 1000);
    const ratio = seconds / ideal;
    return {
      lines: [
        `1,000 answers, engine latency ${LATENCY_MS} ms, ${CONCURRENCY} at a time: ${seconds.toFixed(2)} s (ideal ${ideal.toFixed(2)} s, ratio ${ratio.toFixed(2)}; target ≤ 1.05), ${engine.requests()} engine requests, status ${status}; ${timeline}`,
      ],
      ratio,
    };
  } finally {
    await engine.stop();
  }
}

/** Four vendors, each with its own concurrency limit, and Sightline told those limits. */
const VENDOR_LIMITS = { bench_a: 32, bench_b: 16, bench_c: 8, bench_d: 64 } as const;

/**
 * One analysis of 1,000 answers over four engines (25 prompts × 10 samples each), every engine
 * answering in 200 ms and refusing (429) beyond its own concurrency limit, with each engine's
 * bound configured to that limit. The ideal is what the slowest vendor's limit allows:
 * 250 ÷ 8 × 0.2 s = 6.25 s.
 */
export async function fourEngineAnalysis(dir: string): Promise<string[]> {
  const names = Object.keys(VENDOR_LIMITS) as (keyof typeof VENDOR_LIMITS)[];
  const vendors = await Promise.all(names.map((name) => slowEngine(VENDOR_LIMITS[name])));
  try {
    const { seconds, status } = await timedAnalysis(
      dir,
      "four-engines.db",
      names.map((name, i) => ({ name, url: vendors[i]?.url ?? "" })),
      25,
      { SIGHTLINE_ENGINE_CONCURRENCY_BY_ENGINE: JSON.stringify(VENDOR_LIMITS) },
    );
    const ideal = Math.max(...names.map((name) => (250 / VENDOR_LIMITS[name]) * (LATENCY_MS / 1000)));
    const refused = vendors.reduce((sum, vendor) => sum + vendor.refused(), 0);
    return [
      `4 engines × 250 answers, vendor limits ${names.map((n) => VENDOR_LIMITS[n]).join("/")} at ${LATENCY_MS} ms: ${seconds.toFixed(2)} s (what the limits allow: ${ideal.toFixed(2)} s, ratio ${(seconds / ideal).toFixed(2)}; target ≤ 1.1), ${refused} requests refused with 429, status ${status}`,
    ];
  } finally {
    await Promise.all(vendors.map((vendor) => vendor.stop()));
  }
}

/** A 3,000-character answer naming a brand and 10 competitors, in list, table and prose form. */
export function measurementCost(): string[] {
  const competitors = [
    "HubSpot",
    "Salesforce",
    "Pipedrive",
    "Zoho CRM",
    "Monday.com",
    "Freshsales",
    "Copper",
    "Insightly",
    "Close",
    "Nimble",
  ];
  const project: MeasuredProject = {
    brand: { name: "Acme CRM", aliases: ["Acme"], domains: ["acmecrm.com"] },
    competitors: competitors.map((name) => ({
      name,
      aliases: [],
      domains: [`${name.toLowerCase().replace(/[^a-z]/g, "")}.com`],
    })),
  };
  const lines = [
    "Choosing a CRM for a small agency depends on budget, integrations and how much setup you can afford. Here are the strongest options in 2026:",
    "",
    ...competitors
      .slice(0, 6)
      .map(
        (name, i) =>
          `${i + 1}. **${name}** – a solid, popular choice with good integrations, though pricing can get expensive as you grow.`,
      ),
    "7. **Acme CRM** – affordable, intuitive and praised for its support; see https://acmecrm.com/pricing.",
    "",
    "| Tool | Best for | Watch out for |",
    "|---|---|---|",
    ...competitors.slice(6).map((name) => `| ${name} | small teams | limited reporting |`),
    "",
    "If you already live in Google Workspace, Copper is the natural fit, whereas HubSpot wins on marketing automation. Acme is the budget pick, but its reporting is basic. Read https://www.g2.com/categories/crm and [Capterra](https://www.capterra.com/crm-software/) before deciding; Salesforce remains the enterprise default but is complicated for a five-person agency.",
  ];
  let text = lines.join("\n");
  while (text.length < 3_000)
    text += `\n\nIn short: compare ${competitors.join(", ")} and Acme CRM on a two-week trial with real client data.`;
  text = text.slice(0, 3_000);
  const compiled = compileProject(project);
  const citations = [{ url: "https://www.techradar.com/best/crm", title: "TechRadar" }];
  const prompt = "What is the best CRM for a small agency?";
  for (let i = 0; i < 500; i++) measureAnswer(compiled, { text, citations, prompt });
  const runs = 5_000;
  // CPU time of this process, not wall time: on a shared machine other work would count too.
  const start = process.cpuUsage();
  for (let i = 0; i < runs; i++) measureAnswer(compiled, { text, citations, prompt });
  const used = process.cpuUsage(start);
  const micros = (used.user + used.system) / runs;
  const compileStart = process.hrtime.bigint();
  for (let i = 0; i < 1_000; i++) compileProject(project);
  const compileMicros = Number(process.hrtime.bigint() - compileStart) / 1_000 / 1_000;
  return [
    `measuring one ${text.length}-character answer with 10 competitors: ${micros.toFixed(1)} µs of CPU (target ≤ 1,000 µs); compiling the project's matcher once per analysis: ${compileMicros.toFixed(1)} µs`,
  ];
}
