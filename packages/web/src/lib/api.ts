/**
 * The dashboard's client for `/app/api` (docs/dashboard-api.md), typed by operation from the tables
 * generated from the server's routes (`npm run codegen`): same-origin cookies, JSON bodies, the API's
 * error envelope turned into one error type, and a 401 sends the user to sign in.
 */
import { OPERATIONS, type OperationId, type Operations } from "@sightline/sdk/operations";
import { DASHBOARD_OPERATIONS, type DashboardOperationId, type DashboardOperations } from "../generated/dashboard.ts";

export interface FieldIssue {
  field?: string;
  issue: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: FieldIssue[];
  readonly requestId: string | undefined;

  constructor(status: number, code: string, message: string, details: FieldIssue[] = [], requestId?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.requestId = requestId;
  }
}

type Method = "GET" | "POST" | "PATCH" | "DELETE";

interface CallOptions {
  signal?: AbortSignal;
  /** `throw` where a 401 is an answer rather than an expired session: a wrong password, "am I signed in?". */
  on401?: "sign-in" | "throw";
}

let onUnauthenticated: () => void = () => {};

/** Registered once by the app: what to do when a request finds no valid session. */
export function setUnauthenticatedHandler(handler: () => void): void {
  onUnauthenticated = handler;
}

const BASE = "/app/api";

/**
 * An operation's request parts as its generated types say: path parameters and a body where it
 * has them, a query when it takes one. No URL is written by hand anywhere in the web app: each is
 * made here from the operation's path in the table generated from the server's routes.
 */
type Parts<O extends { params: unknown; query: unknown; body: unknown }> = (O["params"] extends undefined
  ? { params?: undefined }
  : { params: O["params"] }) &
  (O["query"] extends undefined ? { query?: undefined } : { query?: O["query"] }) &
  (O["body"] extends undefined ? { body?: undefined } : { body: O["body"] });

interface AnyParts {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/** `/projects/{id}` with `{id: "prj_1"}` → `/projects/prj_1`, and the query as a search string. */
function urlOf(path: string, parts: AnyParts): string {
  const params = (parts.params ?? {}) as Record<string, string>;
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries((parts.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const query = search.toString();
  return query === "" ? filled : `${filled}?${query}`;
}

/** The workspace's mount of API v1 (docs/dashboard-api.md). */
function v1Path(workspaceId: string, operationId: OperationId, parts: AnyParts): string {
  const { path } = OPERATIONS[operationId];
  return `/workspaces/${encodeURIComponent(workspaceId)}/v1${urlOf(path, parts)}`;
}

/** Calls an operation of API v1 in a workspace, as its member. */
export function v1Call<K extends OperationId>(
  workspaceId: string,
  operationId: K,
  parts: Parts<Operations[K]>,
  options: CallOptions = {},
): Promise<Operations[K]["response"]> {
  const { method } = OPERATIONS[operationId];
  return send(method, v1Path(workspaceId, operationId, parts), parts.body, options);
}

/** Calls a route of the dashboard's own API (accounts, members, invitations, API keys, sign-in). */
export function appCall<K extends DashboardOperationId>(
  operationId: K,
  parts: Parts<DashboardOperations[K]>,
  options: CallOptions = {},
): Promise<DashboardOperations[K]["response"]> {
  const { method, path } = DASHBOARD_OPERATIONS[operationId];
  return send(method, urlOf(path, parts), parts.body, options);
}

/** Where a browser opens an operation of API v1 itself (a report's CSV or printable page), as a link. */
export function v1Url<K extends OperationId>(workspaceId: string, operationId: K, parts: Parts<Operations[K]>): string {
  return `${BASE}${v1Path(workspaceId, operationId, parts)}`;
}

/** The operations whose body is a file's raw bytes (log lines) rather than JSON. */
type RawOperationId = {
  [K in OperationId]: (typeof OPERATIONS)[K] extends { raw: true } ? K : never;
}[OperationId];

interface UploadOptions {
  signal?: AbortSignal;
  /** The body's bytes sent so far, and how many it has (XMLHttpRequest's upload progress). */
  onProgress?: (sent: number, total: number) => void;
  /** `text/plain` unless said: the log lines as they are. */
  contentType?: string;
}

/**
 * Sends bytes (a batch of a log file) as the body of an operation of API v1 that takes them raw, as
 * a member of the workspace. XMLHttpRequest rather than `fetch`, for the upload's progress events;
 * otherwise as `send`: same origin (the browser adds the `Origin` the server's CSRF check reads), the
 * session cookie, errors as `ApiError`, a 401 sends the user to sign in. Aborting rejects with an
 * `AbortError`, as `fetch` does.
 */
export function v1Upload<K extends RawOperationId>(
  workspaceId: string,
  operationId: K,
  parts: Omit<Parts<Operations[K]>, "body"> & { body: Blob },
  options: UploadOptions = {},
): Promise<Operations[K]["response"]> {
  const { signal, onProgress, contentType = "text/plain" } = options;
  const { method } = OPERATIONS[operationId];
  const url = `${BASE}${v1Path(workspaceId, operationId, parts)}`;
  return new Promise((resolve, reject) => {
    const stopped = () => new DOMException("The upload was stopped.", "AbortError");
    if (signal?.aborted) return reject(stopped());
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.setRequestHeader("accept", "application/json");
    request.setRequestHeader("content-type", contentType);
    request.upload.addEventListener("progress", (event) =>
      onProgress?.(event.loaded, event.lengthComputable ? event.total : parts.body.size),
    );
    request.addEventListener("load", () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress?.(parts.body.size, parts.body.size);
        try {
          return resolve(JSON.parse(request.responseText) as Operations[K]["response"]);
        } catch {
          return reject(new ApiError(request.status, "UNKNOWN", "The server's answer could not be read."));
        }
      }
      const response = new Response(request.responseText, {
        status: request.status,
        headers: headersOf(request.getAllResponseHeaders()),
      });
      void toApiError(response).then((error) => {
        if (request.status === 401) onUnauthenticated();
        reject(error);
      });
    });
    request.addEventListener("error", () =>
      reject(new ApiError(0, "NETWORK_ERROR", "Sightline could not be reached. Check your connection and try again.")),
    );
    request.addEventListener("abort", () => reject(stopped()));
    signal?.addEventListener("abort", () => request.abort(), { once: true });
    request.send(parts.body);
  });
}

/** `getAllResponseHeaders()`'s lines as Headers. */
function headersOf(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(":");
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

/**
 * The public address of an operation of API v1 on this server (`https://sightline.example.com/v1/…`),
 * for what calls it from elsewhere with its own credentials: a CDN's log push, a script.
 */
export function publicV1Url<K extends OperationId>(operationId: K, parts: Omit<Parts<Operations[K]>, "body">): string {
  return `${window.location.origin}/v1${urlOf(OPERATIONS[operationId].path, parts)}`;
}

/** The one place the web app sends a request (same-origin cookies, JSON bodies, one error type). */
async function send<T>(method: Method, path: string, body: unknown, options: CallOptions): Promise<T> {
  const { signal, on401 = "sign-in" } = options;
  const headers: Record<string, string> = { accept: "application/json" };
  const init: RequestInit = { method, headers, credentials: "same-origin" };
  if (signal) init.signal = signal;
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "NETWORK_ERROR", "Sightline could not be reached. Check your connection and try again.");
  }
  if (response.ok) {
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }
  const error = await toApiError(response);
  if (response.status === 401 && on401 === "sign-in") onUnauthenticated();
  throw error;
}

async function toApiError(response: Response): Promise<ApiError> {
  const status = response.status;
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    parsed = undefined;
  }
  const envelope = readEnvelope(parsed);
  if (status === 429) {
    const seconds = Number(response.headers.get("retry-after") ?? response.headers.get("x-retry-after"));
    const wait = seconds > 1 && seconds < 90 ? `${Math.ceil(seconds)} seconds` : "a minute";
    return new ApiError(
      status,
      envelope?.code ?? "RATE_LIMIT_EXCEEDED",
      `Too many attempts. Wait ${wait}, then try again.`,
      [],
      envelope?.requestId,
    );
  }
  if (envelope) return new ApiError(status, envelope.code, envelope.message, envelope.details, envelope.requestId);
  if (status >= 500) {
    return new ApiError(status, "INTERNAL_ERROR", "Something went wrong on the server. Try again in a moment.");
  }
  return new ApiError(status, "UNKNOWN", `The request failed (HTTP ${status}).`);
}

interface Envelope {
  code: string;
  message: string;
  details: FieldIssue[];
  requestId: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads `{error: {code, message, request_id, details}}`, or a bare `{code, message}` as a fallback. */
function readEnvelope(body: unknown): Envelope | undefined {
  if (!isRecord(body)) return undefined;
  const inner = isRecord(body.error) ? body.error : body;
  const message = typeof inner.message === "string" && inner.message !== "" ? inner.message : undefined;
  const code = typeof inner.code === "string" ? inner.code : undefined;
  if (!message && !code) return undefined;
  const details: FieldIssue[] = [];
  if (Array.isArray(inner.details)) {
    for (const detail of inner.details) {
      if (isRecord(detail) && typeof detail.issue === "string") {
        details.push(
          typeof detail.field === "string" ? { field: detail.field, issue: detail.issue } : { issue: detail.issue },
        );
      }
    }
  }
  return {
    code: code ?? "UNKNOWN",
    message: message ?? "The request failed.",
    details,
    requestId: typeof inner.request_id === "string" ? inner.request_id : undefined,
  };
}

/** The message to show for any error a request or a form produced. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}

/**
 * A failed submit split for a form: the issues of the fields it shows go next to them; the message
 * goes on top only when none of them matched (otherwise it would say the same thing twice).
 */
export function formErrors(
  error: unknown,
  fields: readonly string[],
): { fields: Record<string, string>; message?: string } {
  const shown = Object.fromEntries(Object.entries(fieldErrors(error)).filter(([name]) => fields.includes(name)));
  return Object.keys(shown).length > 0 ? { fields: shown } : { fields: {}, message: errorMessage(error) };
}

/** Field errors of a validation failure, by field name (`engines[0]` → `engines`). */
export function fieldErrors(error: unknown): Record<string, string> {
  // Field names are the server's, but never looked up through Object.prototype.
  const out: Record<string, string> = Object.create(null);
  if (!(error instanceof ApiError)) return out;
  for (const { field, issue } of error.details) {
    if (!field) continue;
    const name = field.replace(/^(body\.|\/)/, "").replace(/[[./].*$/, "");
    out[name] ??= issue;
  }
  return out;
}
