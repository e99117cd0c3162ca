import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * What this process counts, in the Prometheus text format (`GET /metrics`, docs/operations.md).
 * One registry per process, as Prometheus scrapes processes: every API and worker process has its
 * own, and the queue's figures (read from the database at each scrape) are the same in all of them.
 * Labels are bounded: routes are templates (`/v1/projects/:id`), never paths; engines, job kinds
 * and outcomes are closed lists; no workspace, key or URL is ever a label.
 */
const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "sightline_" });

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const VENDOR_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160];

export const httpRequests = new Counter({
  name: "sightline_http_requests_total",
  help: "HTTP requests answered, by method, route template and status.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: "sightline_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by method, route template and status class.",
  labelNames: ["method", "route", "status_class"] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const jobsFinished = new Counter({
  name: "sightline_jobs_finished_total",
  help: "Job attempts this process finished, by kind and outcome (succeeded, retry, dead, lost).",
  labelNames: ["kind", "outcome"] as const,
  registers: [registry],
});

export const jobsQueued = new Gauge({
  name: "sightline_jobs",
  help: "Jobs in the queue now, by kind and state (pending: due or waiting for its time; running).",
  labelNames: ["kind", "state"] as const,
  registers: [registry],
});

export const jobQueueAge = new Gauge({
  name: "sightline_job_queue_age_seconds",
  help: "How long the oldest due job of each kind has waited to be claimed (0 when none waits).",
  labelNames: ["kind"] as const,
  registers: [registry],
});

export const engineCalls = new Counter({
  name: "sightline_engine_calls_total",
  help: "Questions asked of AI engines, by engine and outcome (ok, error, refused), retries included once.",
  labelNames: ["engine", "outcome"] as const,
  registers: [registry],
});

export const engineDuration = new Histogram({
  name: "sightline_engine_call_duration_seconds",
  help: "Time an engine took to answer, retries included, by engine and outcome.",
  labelNames: ["engine", "outcome"] as const,
  buckets: VENDOR_SECONDS,
  registers: [registry],
});

export const engineCost = new Counter({
  name: "sightline_engine_cost_usd_total",
  help: "What the answers cost at the engines' list prices, in US dollars, by engine.",
  labelNames: ["engine"] as const,
  registers: [registry],
});

export const webhookDeliveries = new Counter({
  name: "sightline_webhook_attempts_total",
  help: "Webhook delivery attempts, by outcome (succeeded, http_error, gone, network_error).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const webhookDuration = new Histogram({
  name: "sightline_webhook_attempt_duration_seconds",
  help: "Time a receiver took to answer a webhook attempt.",
  buckets: SECONDS,
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: "sightline_rate_limit_refusals_total",
  help: "Requests refused for their rate limit, by what was counted (workspace, address).",
  labelNames: ["subject"] as const,
  registers: [registry],
});

export const credits = new Counter({
  name: "sightline_credits_total",
  help: "Credits reserved for accepted work and released when it was not done, by engine.",
  labelNames: ["engine", "movement"] as const,
  registers: [registry],
});

export const databaseReads = new Counter({
  name: "sightline_database_reads_total",
  help: "Reads of analytics, lists and reports, by where they went (replica, or primary when the replica lagged or is off).",
  labelNames: ["target"] as const,
  registers: [registry],
});

/** The text Prometheus scrapes, after `refresh` has read what lives in the database. */
export async function metricsText(refresh: () => Promise<void>): Promise<string> {
  await refresh();
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
