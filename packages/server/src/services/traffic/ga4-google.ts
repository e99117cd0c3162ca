import { createPrivateKey, sign } from "node:crypto";

/**
 * Google's side of GA4 referrals (issue 26), over REST with no Google library: an access token by
 * the OAuth 2.0 JWT bearer grant (RFC 7523: an RS256 JWT signed with the service account's private
 * key, posted to the key's `token_uri`), then the Data API's `runReport`, page by page. What Google
 * refuses or fails comes back as a value saying whose it is to fix (the key, the property, or
 * nobody: retry), never as an exception.
 */

/** Read-only access to Google Analytics: all Sightline asks for. */
const GA4_SCOPE = "https://www.googleapis.com/auth/analytics.readonly";
/** Where Google's service account keys send token requests (their `token_uri`). */
export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";
/** The Google Analytics Data API. */
export const GA4_DATA_API_URL = "https://analyticsdata.googleapis.com";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** The longest a JWT bearer assertion may live, by Google's rules. */
const ASSERTION_SECONDS = 3600;
const TIMEOUT_MS = 30_000;
/** Rows asked for per page (the Data API gives up to 250,000). */
const PAGE_ROWS = 10_000;
/** Past this many rows a sync stops reading: AI referrals of one brand over 90 days are far fewer. */
const MAX_ROWS = 250_000;

/**
 * Session sources worth asking for: a superset of what referrers.ts maps to an engine (a host such
 * as `chatgpt.com`, a utm_source such as `perplexity`), so that Google sends only rows that may be
 * AI referrals. Each row's source is still mapped by referrers.ts; what maps to no engine is ignored.
 */
const AI_SOURCES = "chatgpt|openai|perplexity|gemini|bard|copilot|claude|deepseek|grok|x\\.ai";

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id: string | null;
  token_uri: string;
}

/** What Google refused or failed to give: `field` is what the customer should fix; null: retry later. */
export interface GoogleFailure {
  field: "service_account_key" | "property_id" | null;
  message: string;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; failure: GoogleFailure };

export interface ReportRow {
  /** YYYYMMDD, in the property's time zone. */
  date: string;
  source: string;
  landingPage: string;
  sessions: number;
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The signed assertion of the JWT bearer grant, issued at `now`. */
function signAssertion(key: ServiceAccountKey, now: Date): string {
  const header = { alg: "RS256", typ: "JWT", ...(key.private_key_id === null ? {} : { kid: key.private_key_id }) };
  const iat = Math.floor(now.getTime() / 1000);
  const claims = { iss: key.client_email, scope: GA4_SCOPE, aud: key.token_uri, iat, exp: iat + ASSERTION_SECONDS };
  const input = `${base64url(header)}.${base64url(claims)}`;
  const signature = sign("sha256", Buffer.from(input), createPrivateKey(key.private_key));
  return `${input}.${signature.toString("base64url")}`;
}

/** Google's own words about a refusal, short: an OAuth error or a Google API error body. */
function googleSays(body: unknown): string | null {
  if (body === null || typeof body !== "object") return null;
  const record = body as Record<string, unknown>;
  if (typeof record.error === "string") {
    const description = typeof record.error_description === "string" ? `: ${record.error_description}` : "";
    return `${record.error}${description}`.slice(0, 300);
  }
  const error = record.error as Record<string, unknown> | undefined;
  if (error !== undefined && error !== null && typeof error === "object" && typeof error.message === "string") {
    const status = typeof error.status === "string" ? `${error.status}: ` : "";
    return `${status}${error.message}`.slice(0, 300);
  }
  return null;
}

async function post(
  fetcher: typeof fetch,
  url: string,
  init: { headers: Record<string, string>; body: string },
): Promise<{ status: number; body: unknown } | { error: string }> {
  try {
    const response = await fetcher(url, { method: "POST", ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: said so below by what is missing
    }
    return { status: response.status, body };
  } catch (error) {
    return { error: (error as Error).message.slice(0, 300) };
  }
}

/** An access token for the service account, by the JWT bearer grant. */
export async function accessToken(fetcher: typeof fetch, key: ServiceAccountKey, now: Date): Promise<Outcome<string>> {
  const form = new URLSearchParams({ grant_type: JWT_BEARER, assertion: signAssertion(key, now) });
  const answer = await post(fetcher, key.token_uri, {
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: form.toString(),
  });
  if ("error" in answer) {
    return {
      ok: false,
      failure: { field: null, message: `Google's token endpoint could not be reached (${answer.error})` },
    };
  }
  const token = (answer.body as { access_token?: unknown } | null)?.access_token;
  if (answer.status === 200 && typeof token === "string" && token !== "") return { ok: true, value: token };
  const says = googleSays(answer.body) ?? `HTTP ${answer.status}`;
  if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
    return {
      ok: false,
      failure: { field: "service_account_key", message: `Google refused the service account key (${says})` },
    };
  }
  return { ok: false, failure: { field: null, message: `Google's token endpoint failed (${says})` } };
}

export interface ReportRequest {
  apiUrl: string;
  propertyId: string;
  token: string;
  clientEmail: string;
  /** YYYY-MM-DD, both included. */
  startDate: string;
  endDate: string;
  pageRows?: number;
}

/** The request body of one page: sessions per day, source and landing page, AI sources only. */
function reportBody(request: ReportRequest, offset: number) {
  return {
    dateRanges: [{ startDate: request.startDate, endDate: request.endDate }],
    dimensions: [{ name: "date" }, { name: "sessionSource" }, { name: "landingPage" }],
    metrics: [{ name: "sessions" }],
    dimensionFilter: {
      filter: {
        fieldName: "sessionSource",
        stringFilter: { matchType: "PARTIAL_REGEXP", value: AI_SOURCES, caseSensitive: false },
      },
    },
    limit: request.pageRows ?? PAGE_ROWS,
    offset,
  };
}

function reportFailure(status: number, body: unknown, request: ReportRequest): GoogleFailure {
  const says = googleSays(body) ?? `HTTP ${status}`;
  if (status === 401) {
    return { field: "service_account_key", message: `Google refused the service account's token (${says})` };
  }
  if (status === 403) {
    return {
      field: "property_id",
      message: `Google refused to read GA4 property ${request.propertyId} as ${request.clientEmail}: add that e-mail as a Viewer of the property (${says})`,
    };
  }
  if (status === 400 || status === 404) {
    return {
      field: "property_id",
      message: `Google refused the report of GA4 property ${request.propertyId} (${says})`,
    };
  }
  return { field: null, message: `Google Analytics failed (${says})` };
}

interface ReportPage {
  rows: ReportRow[];
  rowCount: number;
}

function readPage(body: unknown): ReportPage | null {
  if (body === null || typeof body !== "object") return null;
  const { rows, rowCount } = body as { rows?: unknown; rowCount?: unknown };
  if (rows !== undefined && !Array.isArray(rows)) return null;
  const read: ReportRow[] = [];
  for (const row of rows ?? []) {
    const dimensions = (row as { dimensionValues?: { value?: unknown }[] }).dimensionValues ?? [];
    const metrics = (row as { metricValues?: { value?: unknown }[] }).metricValues ?? [];
    const [date, source, landingPage] = dimensions.map((d) => (typeof d?.value === "string" ? d.value : ""));
    const sessions = Number(metrics[0]?.value);
    if (date === undefined || !/^\d{8}$/.test(date) || !Number.isSafeInteger(sessions) || sessions < 0) return null;
    read.push({ date, source: source ?? "", landingPage: landingPage ?? "", sessions });
  }
  const count = Number(rowCount ?? 0);
  return { rows: read, rowCount: Number.isSafeInteger(count) ? count : 0 };
}

/** Every row of the report, page by page with `limit` and `offset` until `rowCount` is read. */
export async function runReport(fetcher: typeof fetch, request: ReportRequest): Promise<Outcome<ReportRow[]>> {
  const url = `${request.apiUrl.replace(/\/+$/, "")}/v1beta/properties/${encodeURIComponent(request.propertyId)}:runReport`;
  const rows: ReportRow[] = [];
  for (let offset = 0; ; ) {
    const answer = await post(fetcher, url, {
      headers: {
        authorization: `Bearer ${request.token}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify(reportBody(request, offset)),
    });
    if ("error" in answer) {
      return {
        ok: false,
        failure: { field: null, message: `Google Analytics could not be reached (${answer.error})` },
      };
    }
    if (answer.status !== 200) return { ok: false, failure: reportFailure(answer.status, answer.body, request) };
    const page = readPage(answer.body);
    if (page === null) {
      return {
        ok: false,
        failure: { field: null, message: "Google Analytics answered a report Sightline cannot read" },
      };
    }
    rows.push(...page.rows);
    offset += page.rows.length;
    if (page.rows.length === 0 || offset >= page.rowCount || offset >= MAX_ROWS) return { ok: true, value: rows };
  }
}
