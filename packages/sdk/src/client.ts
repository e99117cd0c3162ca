import { SightlineConnectionError, SightlineError } from "./errors.ts";
import { OPERATIONS, type OperationId, type Operations } from "./generated/operations.ts";
import type { ErrorResponse } from "./generated/schemas.ts";
import { Analyses } from "./resources/analyses.ts";
import { Changes } from "./resources/changes.ts";
import { Conversations } from "./resources/conversations.ts";
import { Monitoring } from "./resources/monitoring.ts";
import { Personas } from "./resources/personas.ts";
import { Projects } from "./resources/projects.ts";
import { Reports } from "./resources/reports.ts";
import { Results } from "./resources/results.ts";
import { UsageResource } from "./resources/usage.ts";
import { Webhooks } from "./resources/webhooks.ts";

export interface SightlineOptions {
  /** An API key (`sl_live_…`) from Settings → API keys. */
  apiKey: string;
  /** The API's base URL, ending in /v1. Default `http://localhost:8080/v1`. */
  baseUrl?: string;
  /** Retries of idempotent requests (GET) after network errors, 429 and 5xx. Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout in milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof fetch;
}

type Input<K extends OperationId> = {
  params?: Operations[K]["params"];
  query?: Operations[K]["query"];
  body?: Operations[K]["body"];
  /** The media type of a body that is not JSON (log lines): `text/plain` by default. */
  contentType?: string;
};

const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

/**
 * The Sightline API client.
 *
 * @example
 * import { Sightline } from "@sightline/sdk";
 * const sightline = new Sightline({ apiKey: process.env.SIGHTLINE_KEY ?? "", baseUrl: "https://sightline.example.com/v1" });
 * const project = await sightline.projects.create({ name: "Acme", primary_domain: "acme.com" });
 * for await (const p of sightline.projects.listAll()) console.log(p.name);
 */
export class Sightline {
  readonly projects: Projects;
  readonly analyses: Analyses;
  readonly results: Results;
  readonly monitoring: Monitoring;
  readonly reports: Reports;
  readonly changes: Changes;
  readonly personas: Personas;
  readonly conversations: Conversations;
  readonly usage: UsageResource;
  readonly webhooks: Webhooks;
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: SightlineOptions) {
    if (typeof options.apiKey !== "string" || options.apiKey === "") {
      throw new TypeError("Sightline: apiKey is required");
    }
    this.#apiKey = options.apiKey;
    this.#baseUrl = (options.baseUrl ?? "http://localhost:8080/v1").replace(/\/+$/, "");
    this.#maxRetries = options.maxRetries ?? 2;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.projects = new Projects(this);
    this.analyses = new Analyses(this);
    this.results = new Results(this);
    this.monitoring = new Monitoring(this);
    this.reports = new Reports(this);
    this.changes = new Changes(this);
    this.personas = new Personas(this);
    this.conversations = new Conversations(this);
    this.usage = new UsageResource(this);
    this.webhooks = new Webhooks(this);
  }

  /** Calls any operation by its OpenAPI operationId; the resource methods are built on this. */
  async request<K extends OperationId>(operationId: K, input: Input<K> = {}): Promise<Operations[K]["response"]> {
    const operation = OPERATIONS[operationId];
    const params = (input.params ?? {}) as Record<string, string>;
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
    const url = new URL(`${this.#baseUrl}${path}`);
    for (const [name, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}`, accept: "application/json" };
    let body: RequestInit["body"];
    if (input.body !== undefined && "raw" in operation) {
      // Log lines go as they are; bytes starting with gzip's magic number are read as gzip.
      headers["content-type"] = input.contentType ?? "text/plain";
      // Any view of bytes is sent as it is (a Node Buffer's type names a looser buffer than fetch's).
      body = input.body as RequestInit["body"];
    } else if (input.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(input.body);
    }
    const retries = operation.method === "GET" ? this.#maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.#fetch(url, {
          method: operation.method,
          headers,
          body,
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
      } catch (error) {
        if (attempt < retries) {
          await sleep(backoff(attempt));
          continue;
        }
        throw new SightlineConnectionError(`Could not reach ${url.origin}: ${(error as Error).message}`, {
          cause: error,
        });
      }
      if (response.ok) {
        // Some operations answer other formats on request: a report as CSV or HTML is text, as a PDF bytes.
        const type = response.headers.get("content-type") ?? "";
        if (type.includes("json")) return (await response.json()) as Operations[K]["response"];
        if (type.startsWith("application/pdf"))
          return new Uint8Array(await response.arrayBuffer()) as unknown as Operations[K]["response"];
        return (await response.text()) as unknown as Operations[K]["response"];
      }
      const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      if (attempt < retries && RETRYABLE.has(response.status)) {
        await response.body?.cancel();
        await sleep(retryAfter === undefined ? backoff(attempt) : Math.min(retryAfter, 60) * 1000);
        continue;
      }
      throw await toError(response, retryAfter);
    }
  }
}

async function toError(response: Response, retryAfter: number | undefined): Promise<SightlineError> {
  const text = await response.text();
  try {
    const parsed = JSON.parse(text) as ErrorResponse;
    if (parsed?.error?.code !== undefined) return new SightlineError(response.status, parsed.error, retryAfter);
  } catch {
    // not JSON: a proxy in between answered
  }
  return new SightlineError(
    response.status,
    {
      code: codeForStatus(response.status),
      message: `HTTP ${response.status}: ${text.slice(0, 200)}`,
      request_id: response.headers.get("x-request-id") ?? "",
      details: [],
    },
    retryAfter,
  );
}

/** For answers without our error body (a proxy, a wrong base URL): the code its status means. */
function codeForStatus(status: number): ErrorResponse["error"]["code"] {
  if (status === 401) return "INVALID_API_KEY";
  if (status === 404) return "NOT_FOUND";
  if (status === 429) return "RATE_LIMIT_EXCEEDED";
  if (status === 400 || status === 413 || status === 422) return "VALIDATION_ERROR";
  return "INTERNAL_ERROR";
}

function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

function backoff(attempt: number): number {
  return Math.min(8_000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
