/**
 * The dashboard's fetch client for `/app/api` (docs/dashboard-api.md): same-origin cookies, JSON bodies,
 * the API's error envelope turned into one error type, and a 401 sends the user to sign in.
 */

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

interface RequestOptions {
  method?: Method;
  body?: unknown;
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

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = "GET", body, signal, on401 = "sign-in" } = options;
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

/** A path under a workspace's mount of the public API: `/workspaces/:ws/v1/...`. */
export function v1(workspaceId: string, path: string): string {
  return `/workspaces/${encodeURIComponent(workspaceId)}/v1${path}`;
}

/** A path under a workspace's dashboard routes: `/workspaces/:ws/...`. */
export function ws(workspaceId: string, path = ""): string {
  return `/workspaces/${encodeURIComponent(workspaceId)}${path}`;
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
