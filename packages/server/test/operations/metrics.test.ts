import { createServer, type Server } from "node:http";
import { gunzipSync } from "node:zlib";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/app/runtime.ts";
import { createApiKey } from "../../src/services/api-keys/api-keys.ts";
import { createWorkspace } from "../../src/services/workspaces/workspaces.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { startFakeOpenAIResponses } from "../helpers/fake-vendors/index.ts";
import type { FakeOpenAIResponses } from "../helpers/fake-vendors/openai-responses.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";
import { freePort, type ServerProcess, startServerProcess } from "../helpers/processes.ts";
import { Receiver } from "../helpers/receiver.ts";

const TOKEN = "metrics-token-0123456789abcdef";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** A small OTLP/HTTP collector: keeps every span it is sent (JSON, as the official exporter sends it). */
class FakeCollector {
  readonly spans: OtlpSpan[] = [];
  readonly paths: string[] = [];
  #server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        this.paths.push(req.url ?? "");
        let body = Buffer.concat(chunks);
        if (req.headers["content-encoding"] === "gzip") body = gunzipSync(body);
        const payload = JSON.parse(body.toString("utf8")) as {
          resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        for (const resource of payload.resourceSpans)
          for (const scope of resource.scopeSpans) this.spans.push(...scope.spans);
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, "127.0.0.1", resolve));
    const address = this.#server.address();
    this.url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

type Family = {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }[];
};

function family(families: Family[], name: string): Family {
  const found = families.find((f) => f.name === name);
  if (found === undefined) throw new Error(`no metric ${name} in the scrape`);
  return found;
}

function sampleSum(families: Family[], name: string, labels: Record<string, string>): number {
  const series = family(families, name).metrics.filter((m) =>
    Object.entries(labels).every(([key, value]) => m.labels?.[key] === value),
  );
  return series.reduce((sum, m) => sum + Number(m.value ?? m.count ?? 0), 0);
}

/** The value of the one sample line of `name` whose labels contain `labels`. */
function histogramLine(text: string, name: string, labels: string): number {
  const lines = text.split("\n").filter((line) => line.startsWith(`${name}{`) && line.includes(labels));
  expect(lines, `${name} ${labels}`).toHaveLength(1);
  return Number(lines[0]?.split(" ").at(-1));
}

function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
}

describe.each(DIALECTS)("metrics and traces [%s]", (dialect) => {
  let db: TestDatabase;
  let key: string;
  let vendor: FakeOpenAIResponses;
  let collector: FakeCollector;
  let receiver: Receiver;
  let server: ServerProcess;
  let metricsPort: number;

  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    vendor = await startFakeOpenAIResponses();
    collector = await new FakeCollector().start();
    receiver = await new Receiver().start();
    const runtime = await createRuntime(
      { database: db.config, secretKeys: [TEST_SECRET_KEY] },
      pino({ level: "silent" }),
    );
    const workspace = await createWorkspace(runtime.deps, { name: "Metrics", plan: "agency" });
    key = (
      await createApiKey(runtime.deps, {
        workspaceId: workspace.id,
        name: "k",
        scopes: ["projects", "analyze", "results", "webhooks"],
      })
    ).key;
    await runtime.close();
    metricsPort = await freePort();
    server = await startServerProcess({
      DATABASE_URL: db.url,
      SIGHTLINE_SECRET_KEY: TEST_SECRET_KEY.toString("base64"),
      SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true",
      SIGHTLINE_METRICS_TOKEN: TOKEN,
      SIGHTLINE_METRICS_PORT: String(metricsPort),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OPENAI_API_KEY: "sk-test-metrics",
      OPENAI_BASE_URL: vendor.url,
    });
  });
  afterAll(async () => {
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    await collector.stop();
    await receiver.stop();
    await vendor.stop();
    await db.drop();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(new URL(path, server.url), {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
    });

  it("counts requests, jobs, engine calls, costs, credits, deliveries and refusals in the Prometheus format, and traces an analysis through its vendor calls", async () => {
    const hook = await api("/v1/webhooks", {
      method: "POST",
      body: JSON.stringify({ url: `${receiver.url}/hook`, events: ["project.created"] }),
    });
    expect(hook.status).toBe(201);
    const created = await api("/v1/projects", {
      method: "POST",
      body: JSON.stringify({
        name: "Acme CRM",
        primary_domain: "acmecrm.com",
        prompts: ["best crm for startups", "crm with the best api"],
        engines: ["chatgpt"],
      }),
    });
    expect(created.status).toBe(201);
    const project = (await created.json()) as { id: string };
    const analysis = await api("/v1/analyze", {
      method: "POST",
      body: JSON.stringify({ project_id: project.id, wait: true }),
    });
    const done = (await analysis.json()) as { id: string; status: string };
    expect(done.status).toBe("completed");
    expect((await api("/v1/projects/prj_doesnotexist")).status).toBe(404);
    await receiver.waitFor(1, "/hook", 15_000);
    // 61 requests without a key from one address: the 61st is over the anonymous limit.
    let refused = 0;
    for (let i = 0; i < 61; i++) {
      const response = await fetch(new URL("/v1/projects", server.url));
      if (response.status === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);

    // Without the token, or with another: 401 and a challenge.
    const anonymous = await fetch(new URL("/metrics", server.url));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain("Bearer");
    expect((await fetch(new URL("/metrics", server.url), { headers: { authorization: `Bearer ${key}` } })).status).toBe(
      401,
    );

    // Deliveries are counted when their batch finishes: scrape until the attempt is in.
    let families: Family[] = [];
    let text = "";
    const deadline = Date.now() + 10_000;
    do {
      const scrape = await fetch(new URL("/metrics", server.url), { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get("content-type")).toContain("text/plain");
      text = await scrape.text();
      // The parser reads every line and throws on one that is not in the format.
      families = parsePrometheusTextFormat(text) as Family[];
    } while (
      sampleSum(families, "sightline_webhook_attempts_total", { outcome: "succeeded" }) < 1 &&
      Date.now() < deadline
    );

    expect(
      sampleSum(families, "sightline_http_requests_total", { route: "/v1/projects", method: "POST", status: "201" }),
    ).toBe(1);
    expect(sampleSum(families, "sightline_http_requests_total", { route: "/v1/projects/:id", status: "404" })).toBe(1);
    expect(sampleSum(families, "sightline_http_requests_total", { route: "/v1/projects", status: "429" })).toBe(
      refused,
    );
    // Routes are templates, never paths with ids.
    for (const series of family(families, "sightline_http_requests_total").metrics)
      expect(series.labels?.route).not.toMatch(/prj_|ana_/);
    const latency = family(families, "sightline_http_request_duration_seconds");
    expect(latency.type).toBe("HISTOGRAM");
    // (The parser folds a histogram's series into one; each series' own lines are read here.)
    expect(histogramLine(text, "sightline_http_request_duration_seconds_count", 'route="/v1/analyze"')).toBe(1);
    expect(
      histogramLine(
        text,
        "sightline_http_request_duration_seconds_bucket",
        'le="+Inf",method="POST",route="/v1/analyze",status_class="2xx"',
      ),
    ).toBe(1);

    expect(sampleSum(families, "sightline_engine_calls_total", { engine: "chatgpt", outcome: "ok" })).toBe(2);
    expect(family(families, "sightline_engine_call_duration_seconds").type).toBe("HISTOGRAM");
    expect(sampleSum(families, "sightline_engine_cost_usd_total", { engine: "chatgpt" })).toBeGreaterThan(0);
    expect(sampleSum(families, "sightline_credits_total", { engine: "chatgpt", movement: "reserved" })).toBe(2);
    expect(sampleSum(families, "sightline_jobs_finished_total", { kind: "analysis.run", outcome: "succeeded" })).toBe(
      1,
    );
    expect(sampleSum(families, "sightline_webhook_attempts_total", { outcome: "succeeded" })).toBeGreaterThanOrEqual(1);
    expect(family(families, "sightline_webhook_attempt_duration_seconds").type).toBe("HISTOGRAM");
    expect(sampleSum(families, "sightline_rate_limit_refusals_total", { subject: "address" })).toBe(refused);
    expect(family(families, "sightline_jobs").type).toBe("GAUGE");
    expect(family(families, "sightline_job_queue_age_seconds").type).toBe("GAUGE");
    expect(family(families, "sightline_process_resident_memory_bytes").type).toBe("GAUGE");

    // The internal port answers without a token, and nothing but /metrics.
    const internal = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(internal.status).toBe(200);
    const internalFamilies = parsePrometheusTextFormat(await internal.text()) as Family[];
    expect(sampleSum(internalFamilies, "sightline_engine_calls_total", { engine: "chatgpt", outcome: "ok" })).toBe(2);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/v1/projects`)).status).toBe(404);

    // The trace of the analysis: its job's span, and under it a span per vendor call.
    const spansDeadline = Date.now() + 10_000;
    const engineSpans = () => collector.spans.filter((span) => span.name === "engine chatgpt");
    const exported = () =>
      engineSpans().length >= 2 &&
      collector.spans.some((span) => span.name === "job analysis.run") &&
      collector.spans.some((span) => span.name === "POST /v1/analyze");
    // Spans are sent in batches, every second: wait for the request's, the job's and the vendors'.
    while (!exported() && Date.now() < spansDeadline) await new Promise((r) => setTimeout(r, 100));
    expect(collector.paths.every((path) => path === "/v1/traces")).toBe(true);
    const job = collector.spans.find((span) => span.name === "job analysis.run");
    expect(job).toBeDefined();
    expect(engineSpans()).toHaveLength(2);
    for (const span of engineSpans()) {
      expect(span.traceId).toBe(job?.traceId);
      expect(span.parentSpanId).toBe(job?.spanId);
      expect(attribute(span, "sightline.engine.outcome")).toBe("ok");
      expect(Number(attribute(span, "sightline.engine.cost_usd"))).toBeGreaterThan(0);
    }
    const request = collector.spans.find((span) => span.name === "POST /v1/analyze");
    expect(request).toBeDefined();
    expect(attribute(request as OtlpSpan, "http.response.status_code")).toBe(200);
    // Its access-log line names the trace, so that each is found from the other.
    const line = server
      .output()
      .split("\n")
      .find((text) => text.includes('"route":"/v1/analyze"') && text.includes('"msg":"request"'));
    expect(line).toContain(`"trace_id":"${request?.traceId}"`);
  }, 90_000);
});
