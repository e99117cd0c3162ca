import { generateKeyPairSync, type KeyObject, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * A local fake of the two Google endpoints a GA4 sync calls (issue 26), speaking their wire formats:
 * the OAuth 2.0 token endpoint (JWT bearer grant: it verifies the assertion's RS256 signature with
 * the service account's public key, its header, its claims and the grant type) and the Analytics
 * Data API's `runReport` (it checks the bearer token, the property and the request body, applies
 * the request's date range and session-source filter, and pages the rows by `limit`/`offset` with
 * `rowCount`, as Google does). What it found wrong with a request is in `problems`.
 */

const GA4_SCOPE = "https://www.googleapis.com/auth/analytics.readonly";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

export interface FakeRow {
  /** YYYYMMDD */
  date: string;
  source: string;
  landingPage: string;
  sessions: number;
}

/** A service account's JSON key file. */
type KeyFile = { client_email: string; private_key: string; token_uri?: string } & Record<string, unknown>;

interface RecordedCall {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface FakeGoogle {
  /** `http://127.0.0.1:PORT`: the Data API's base URL. */
  readonly url: string;
  /** Where the service account's key sends token requests. */
  readonly tokenUri: string;
  readonly clientEmail: string;
  /** The service account's private key (PKCS #8 PEM), as its key file holds it. */
  readonly privateKey: string;
  readonly publicKey: KeyObject;
  /** The properties the service account may read. */
  readonly properties: Set<string>;
  /** What the reports answer, before the request's date range, filter and paging. */
  rows: FakeRow[];
  /** The most rows one page holds, whatever `limit` asks (Google's cap is 250,000). */
  maxPageRows: number;
  /** Answer the next token requests with 400 invalid_grant, as for a deleted key. */
  refuseTokens: boolean;
  /** Answer runReport with 503 UNAVAILABLE. */
  unavailable: boolean;
  readonly calls: RecordedCall[];
  readonly problems: string[];
  /** A key file as Google's console downloads it, for this fake. */
  keyFile(overrides?: Record<string, unknown>): KeyFile;
  close(): Promise<void>;
}

let keys: { privateKey: string; publicKey: KeyObject } | null = null;

/** One RSA key pair per test process: generating one takes a while. */
function keyPair() {
  if (keys === null) {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    keys = {
      privateKey: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      publicKey: pair.publicKey,
    };
  }
  return keys;
}

const PRIVATE_KEY_ID = "0123456789abcdef0123456789abcdef01234567";

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
  response.end(JSON.stringify(body));
}

const googleError = (code: number, status: string, message: string) => ({ error: { code, message, status } });

function decodePart(part: string | undefined): Record<string, unknown> | null {
  try {
    return JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const { privateKey, publicKey } = keyPair();
  const tokens = new Set<string>();
  let fake: FakeGoogle;

  /** The assertion's problems, if any: signature, header, claims. */
  function checkAssertion(assertion: string): string[] {
    const [header, claims, signature] = assertion.split(".");
    const found: string[] = [];
    if (header === undefined || claims === undefined || signature === undefined) return ["the assertion is not a JWT"];
    const signed = verify("sha256", Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, "base64url"));
    if (!signed) found.push("the assertion's signature does not verify with the service account's public key");
    const h = decodePart(header);
    if (h?.alg !== "RS256" || h?.typ !== "JWT") found.push(`header ${JSON.stringify(h)}: alg must be RS256, typ JWT`);
    if (h?.kid !== undefined && h.kid !== PRIVATE_KEY_ID) found.push(`kid ${String(h.kid)} is not the key's id`);
    const c = decodePart(claims);
    if (c?.iss !== fake.clientEmail) found.push(`iss ${String(c?.iss)} is not the service account`);
    if (c?.scope !== GA4_SCOPE) found.push(`scope ${String(c?.scope)}`);
    if (c?.aud !== fake.tokenUri) found.push(`aud ${String(c?.aud)} is not the token URI`);
    const iat = c?.iat;
    const exp = c?.exp;
    if (!Number.isInteger(iat) || !Number.isInteger(exp) || (exp as number) <= (iat as number)) {
      found.push(`iat ${String(iat)} and exp ${String(exp)} must be whole seconds, exp after iat`);
    } else if ((exp as number) - (iat as number) > 3600) found.push("the assertion lives longer than an hour");
    return found;
  }

  async function token(request: IncomingMessage, response: ServerResponse, body: string): Promise<void> {
    if (!String(request.headers["content-type"]).startsWith("application/x-www-form-urlencoded")) {
      fake.problems.push(`token request content-type ${String(request.headers["content-type"])}`);
    }
    const form = new URLSearchParams(body);
    if (form.get("grant_type") !== JWT_BEARER) {
      fake.problems.push(`grant_type ${String(form.get("grant_type"))}`);
      return send(response, 400, { error: "unsupported_grant_type", error_description: "Invalid grant_type." });
    }
    const wrong = checkAssertion(form.get("assertion") ?? "");
    if (wrong.length > 0) {
      fake.problems.push(...wrong);
      return send(response, 400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
    }
    if (fake.refuseTokens) {
      return send(response, 400, { error: "invalid_grant", error_description: "Invalid grant: account not found" });
    }
    const value = `ya29.${randomBytes(24).toString("base64url")}`;
    tokens.add(value);
    send(response, 200, { access_token: value, expires_in: 3599, token_type: "Bearer" });
  }

  function report(request: IncomingMessage, response: ServerResponse, property: string, body: string) {
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1];
    if (bearer === undefined || !tokens.has(bearer)) {
      return send(
        response,
        401,
        googleError(
          401,
          "UNAUTHENTICATED",
          "Request had invalid authentication credentials. Expected OAuth 2 access token.",
        ),
      );
    }
    if (fake.unavailable)
      return send(response, 503, googleError(503, "UNAVAILABLE", "The service is currently unavailable."));
    if (!fake.properties.has(property)) {
      return send(
        response,
        403,
        googleError(403, "PERMISSION_DENIED", "User does not have sufficient permissions for this property."),
      );
    }
    let asked: {
      dateRanges?: { startDate?: string; endDate?: string }[];
      dimensions?: { name?: string }[];
      metrics?: { name?: string }[];
      dimensionFilter?: {
        filter?: { fieldName?: string; stringFilter?: { matchType?: string; value?: string; caseSensitive?: boolean } };
      };
      limit?: number | string;
      offset?: number | string;
    };
    try {
      asked = JSON.parse(body);
    } catch {
      return send(response, 400, googleError(400, "INVALID_ARGUMENT", "Invalid JSON payload received."));
    }
    const range = asked.dateRanges?.[0];
    const day = /^\d{4}-\d{2}-\d{2}$/;
    const dimensions = (asked.dimensions ?? []).map((d) => d.name);
    const metrics = (asked.metrics ?? []).map((m) => m.name);
    const filter = asked.dimensionFilter?.filter;
    const wrong = [
      ...(asked.dateRanges?.length === 1 && day.test(range?.startDate ?? "") && day.test(range?.endDate ?? "")
        ? []
        : [`dateRanges ${JSON.stringify(asked.dateRanges)}`]),
      ...(JSON.stringify(dimensions) === JSON.stringify(["date", "sessionSource", "landingPage"])
        ? []
        : [`dimensions ${JSON.stringify(dimensions)}`]),
      ...(JSON.stringify(metrics) === JSON.stringify(["sessions"]) ? [] : [`metrics ${JSON.stringify(metrics)}`]),
      ...(filter?.fieldName === "sessionSource" && filter.stringFilter?.matchType === "PARTIAL_REGEXP"
        ? []
        : [`dimensionFilter ${JSON.stringify(asked.dimensionFilter)}`]),
    ];
    const limit = Number(asked.limit ?? 10_000);
    const offset = Number(asked.offset ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(offset) || offset < 0) {
      wrong.push(`limit ${String(asked.limit)} offset ${String(asked.offset)}`);
    }
    if (wrong.length > 0) {
      fake.problems.push(...wrong);
      return send(response, 400, googleError(400, "INVALID_ARGUMENT", wrong.join("; ")));
    }
    const start = (range?.startDate ?? "").replaceAll("-", "");
    const end = (range?.endDate ?? "").replaceAll("-", "");
    const pattern = new RegExp(filter?.stringFilter?.value ?? "", filter?.stringFilter?.caseSensitive ? "" : "i");
    const matching = fake.rows.filter((row) => row.date >= start && row.date <= end && pattern.test(row.source));
    const page = matching.slice(offset, offset + Math.min(limit, fake.maxPageRows));
    send(response, 200, {
      dimensionHeaders: [{ name: "date" }, { name: "sessionSource" }, { name: "landingPage" }],
      metricHeaders: [{ name: "sessions", type: "TYPE_INTEGER" }],
      // Google leaves out `rows` and `rowCount` when nothing matches.
      ...(matching.length === 0
        ? {}
        : {
            rows: page.map((row) => ({
              dimensionValues: [{ value: row.date }, { value: row.source }, { value: row.landingPage }],
              metricValues: [{ value: String(row.sessions) }],
            })),
            rowCount: matching.length,
          }),
      metadata: { currencyCode: "USD", timeZone: "Etc/UTC" },
      kind: "analyticsData#runReport",
    });
  }

  const server: Server = createServer((request, response) => {
    void readBody(request).then(async (body) => {
      const path = (request.url ?? "/").split("?")[0] ?? "/";
      fake.calls.push({ path, headers: request.headers, body });
      if (request.method === "POST" && path === "/token") return token(request, response, body);
      const property = /^\/v1beta\/properties\/([^/:]+):runReport$/.exec(path)?.[1];
      if (request.method === "POST" && property !== undefined) return report(request, response, property, body);
      send(response, 404, googleError(404, "NOT_FOUND", `No ${request.method} ${path}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  fake = {
    url,
    tokenUri: `${url}/token`,
    clientEmail: "sightline-reader@acme-analytics.iam.gserviceaccount.com",
    privateKey,
    publicKey,
    properties: new Set(["123456789"]),
    rows: [],
    maxPageRows: 250_000,
    refuseTokens: false,
    unavailable: false,
    calls: [],
    problems: [],
    keyFile: (overrides = {}) => ({
      type: "service_account",
      project_id: "acme-analytics",
      private_key_id: PRIVATE_KEY_ID,
      private_key: privateKey,
      client_email: fake.clientEmail,
      client_id: "104711718141421356237",
      auth_uri: "https://accounts.google.com/o/oauth2/auth",
      token_uri: fake.tokenUri,
      auth_provider_x509_cert_url: "https://www.googleapis.com/oauth2/v1/certs",
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(fake.clientEmail)}`,
      universe_domain: "googleapis.com",
      ...overrides,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

let shared: Promise<FakeGoogle> | null = null;

/** One fake for the route fixtures of a test process, never closed (its server does not keep the process alive). */
export function sharedFakeGoogle(): Promise<FakeGoogle> {
  shared ??= startFakeGoogle();
  return shared;
}
