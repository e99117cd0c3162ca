import { timingSafeEqual } from "node:crypto";
import type { OAuthClientsTable } from "../../db/tables.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { Deps } from "../context.ts";
import { OAuthFailure } from "./failure.ts";
import { hashSecret, isSecretOf, newSecret } from "./tokens.ts";

/** How a client proves itself at the token endpoint (RFC 7591 §2): PKCE alone, or a secret too. */
const AUTH_METHODS = ["none", "client_secret_post", "client_secret_basic"] as const;
type AuthMethod = (typeof AUTH_METHODS)[number];

export interface OAuthClient {
  id: string;
  name: string;
  clientUri: string | null;
  redirectUris: string[];
  authMethod: AuthMethod;
  secretHash: string | null;
}

const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2_000;
/** Schemes no redirect may use: they run code or read files instead of handing a code to an app. */
const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "about:", "blob:", "filesystem:"]);

function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Why a redirect URI cannot be registered, or null when it can (RFC 8252, OAuth 2.1 §2.3.1): an
 * https address; an http one on this machine's loopback only (native apps listen there); or an
 * app's own scheme (`cursor://…`, `vscode://…`). No fragment, no credentials.
 */
function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0) return "must be a non-empty string";
  if (value.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URI";
  }
  if (url.hash !== "" || value.includes("#")) return "must not have a fragment";
  if (url.username !== "" || url.password !== "") return "must not carry credentials";
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `must not use the ${url.protocol} scheme`;
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
    return "must use https, or http on a loopback address (127.0.0.1, [::1], localhost)";
  return null;
}

/**
 * Whether `presented` is one of the client's registered redirect URIs: exactly, but for the port
 * of a loopback one, which a native app picks when it starts (RFC 8252 §7.3).
 */
export function registeredRedirect(client: OAuthClient, presented: string): boolean {
  if (client.redirectUris.includes(presented)) return true;
  let url: URL;
  try {
    url = new URL(presented);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" || !isLoopbackHost(url.hostname)) return false;
  return client.redirectUris.some((registered) => {
    const r = new URL(registered);
    return (
      r.protocol === "http:" && r.hostname === url.hostname && r.pathname === url.pathname && r.search === url.search
    );
  });
}

export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  client_uri?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: AuthMethod;
  client_secret?: string;
  client_secret_expires_at?: number;
}

const text = (value: unknown, max: number): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : null;

/**
 * Dynamic client registration (RFC 7591), open as the MCP authorization spec expects: anyone may
 * register, and registering grants nothing; a member's consent does. Metadata Sightline has no use
 * for (logo, contacts, software id) is accepted and not kept.
 */
export async function registerClient(deps: Deps, body: unknown): Promise<RegisteredClient> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new OAuthFailure("invalid_client_metadata", "The body must be a JSON object of client metadata.");
  const metadata = body as Record<string, unknown>;
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0)
    throw new OAuthFailure("invalid_redirect_uri", "redirect_uris must be a non-empty array of URIs.");
  if (uris.length > MAX_REDIRECT_URIS)
    throw new OAuthFailure("invalid_redirect_uri", `redirect_uris may list at most ${MAX_REDIRECT_URIS} URIs.`);
  for (const [index, uri] of uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem !== null) throw new OAuthFailure("invalid_redirect_uri", `redirect_uris[${index}] ${problem}.`);
  }
  const method = metadata.token_endpoint_auth_method ?? "client_secret_basic";
  if (typeof method !== "string" || !(AUTH_METHODS as readonly string[]).includes(method))
    throw new OAuthFailure(
      "invalid_client_metadata",
      `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(", ")}.`,
    );
  const grants = metadata.grant_types ?? ["authorization_code", "refresh_token"];
  if (!Array.isArray(grants) || grants.some((g) => g !== "authorization_code" && g !== "refresh_token"))
    throw new OAuthFailure(
      "invalid_client_metadata",
      "grant_types may name authorization_code and refresh_token only.",
    );
  const responses = metadata.response_types ?? ["code"];
  if (!Array.isArray(responses) || responses.some((r) => r !== "code"))
    throw new OAuthFailure("invalid_client_metadata", "response_types may name code only.");
  let clientUri = text(metadata.client_uri, MAX_URI_LENGTH);
  if (clientUri !== null) {
    try {
      const url = new URL(clientUri);
      if (url.protocol !== "https:" && url.protocol !== "http:") clientUri = null;
    } catch {
      clientUri = null;
    }
  }
  const redirectUris = uris as string[];
  const name = text(metadata.client_name, 100) ?? (new URL(redirectUris[0] as string).host || "An application");
  const secret = method === "none" ? null : newSecret("secret");
  const now = deps.clock.now();
  const row: OAuthClientsTable = {
    id: newId("cli"),
    name,
    client_uri: clientUri,
    redirect_uris: toJson(redirectUris),
    auth_method: method,
    secret_hash: secret === null ? null : hashSecret(secret),
    created_at: now.toISOString(),
  };
  await deps.db.insertInto("oauth_clients").values(row).execute();
  return {
    client_id: row.id,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: name,
    ...(clientUri === null ? {} : { client_uri: clientUri }),
    redirect_uris: redirectUris,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: method as AuthMethod,
    ...(secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
  };
}

export async function findClient(deps: Deps, clientId: string): Promise<OAuthClient | null> {
  const row = await deps.db.selectFrom("oauth_clients").selectAll().where("id", "=", clientId).executeTakeFirst();
  if (row === undefined) return null;
  return {
    id: row.id,
    name: row.name,
    clientUri: row.client_uri,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    authMethod: row.auth_method as AuthMethod,
    secretHash: row.secret_hash,
  };
}

/** What a token or revocation request says about its client: from `Authorization: Basic`, or the form. */
export interface ClientCredentials {
  clientId: string | undefined;
  secret: string | undefined;
  basic: boolean;
}

export function clientCredentials(authorization: string | undefined, form: Record<string, string>): ClientCredentials {
  const match = authorization === undefined ? null : /^basic[ \t]+(\S+)\s*$/i.exec(authorization);
  if (match?.[1] !== undefined) {
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) {
      try {
        const id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
        const secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
        return { clientId: id, secret, basic: true };
      } catch {
        // Bad percent-encoding: the same answer as any credentials that are not a client's.
      }
    }
    throw new OAuthFailure("invalid_client", "The Basic credentials are not client_id:client_secret.", 401);
  }
  return { clientId: form.client_id, secret: form.client_secret, basic: false };
}

/** The client a token request comes from, authenticated as it registered (RFC 6749 §2.3). */
export async function authenticateClient(deps: Deps, credentials: ClientCredentials): Promise<OAuthClient> {
  const refused = (why: string) => new OAuthFailure("invalid_client", why, 401);
  if (credentials.clientId === undefined || credentials.clientId === "") throw refused("client_id is missing.");
  const client = await findClient(deps, credentials.clientId);
  if (client === null) throw refused("No client is registered with this client_id; register again.");
  if (client.authMethod === "none") {
    if (credentials.secret !== undefined && credentials.secret !== "")
      throw refused("This client registered without a secret (token_endpoint_auth_method none).");
    return client;
  }
  const secret = credentials.secret;
  if (secret === undefined || !isSecretOf("secret", secret)) throw refused("The client secret is missing or wrong.");
  const presented = Buffer.from(hashSecret(secret));
  const stored = Buffer.from(client.secretHash ?? "");
  if (presented.length !== stored.length || !timingSafeEqual(presented, stored))
    throw refused("The client secret is missing or wrong.");
  return client;
}
