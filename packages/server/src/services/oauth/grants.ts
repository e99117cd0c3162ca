import type { Static } from "typebox";
import { ApiError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { AccountUser } from "../accounts/identity.ts";
import { membership, workspacesOf } from "../accounts/members.ts";
import { type Role, scopesOf } from "../accounts/roles.ts";
import { isScope, SCOPES, type Scope } from "../api-keys/scopes.ts";
import type { Deps } from "../context.ts";
import { inTransaction } from "../context.ts";
import { isPlanName } from "../plans/catalog.ts";
import { findClient, type OAuthClient, registeredRedirect } from "./clients.ts";
import { OAuthFailure } from "./failure.ts";
import type { AuthorizationQuery } from "./schemas.ts";
import {
  ACCESS_TOKEN_SECONDS,
  CODE_SECONDS,
  hashSecret,
  isSecretOf,
  newSecret,
  REFRESH_TOKEN_DAYS,
  verifierMatches,
} from "./tokens.ts";

/** The query of an authorization request (RFC 6749 §4.1.1, RFC 7636, RFC 8707), as it came. */
export type AuthorizationParams = Static<typeof AuthorizationQuery>;

interface CheckedAuthorization {
  client: OAuthClient;
  redirectUri: string;
  /** Whether the request named its redirect URI (then the code's exchange must name it again). */
  redirectNamed: boolean;
  state: string | null;
  resource: string | null;
  codeChallenge: string;
  /** The scopes it asked for that Sightline has; every scope when it named none of them. */
  requested: Scope[];
}

/** Scopes a request names, as ours: unknown ones (`openid`, `profile`…) are ignored (RFC 6749 §3.3). */
function parseScopes(value: string | undefined): Scope[] {
  const named = (value ?? "").split(/[ \t]+/).filter(isScope);
  return SCOPES.filter((scope) => named.includes(scope));
}

/**
 * Whether `resource` names this server's MCP endpoint (RFC 8707): tokens are for `/mcp` and nothing
 * else, on a host this server answers to.
 */
function isMcpResource(deps: Deps, resource: string): boolean {
  try {
    const url = new URL(resource);
    const base = new URL(deps.publicUrl);
    const path = `${base.pathname.replace(/\/$/, "")}/mcp`;
    return (
      url.protocol === base.protocol &&
      deps.origins.allowsHost(url.host) &&
      url.pathname.replace(/\/$/, "") === path &&
      url.search === "" &&
      url.hash === ""
    );
  } catch {
    return false;
  }
}

/**
 * Checks an authorization request: the client and its redirect URI, then the rest. PKCE with S256
 * is required (OAuth 2.1). Every error is shown to the member on the consent page and none is sent
 * to the redirect URI: registration is open, so a redirect of an error would make this server's
 * address an open redirect to wherever anyone registered (RFC 9700 §4.11.2).
 */
async function checkAuthorization(deps: Deps, params: AuthorizationParams): Promise<CheckedAuthorization> {
  const clientId = params.client_id ?? "";
  const client = clientId === "" ? null : await findClient(deps, clientId);
  if (client === null)
    throw new OAuthFailure(
      "invalid_client",
      "The application that sent you here is not registered with this Sightline server. Try connecting again from the application.",
    );
  let redirectUri = params.redirect_uri;
  if (redirectUri === undefined || redirectUri === "") {
    if (client.redirectUris.length !== 1)
      throw new OAuthFailure(
        "invalid_request",
        "The request has no redirect_uri, and the application registered several.",
      );
    redirectUri = client.redirectUris[0] as string;
  }
  if (!registeredRedirect(client, redirectUri))
    throw new OAuthFailure(
      "invalid_request",
      "The redirect_uri is not one the application registered: this request may not come from it.",
    );
  if (params.response_type !== "code")
    throw new OAuthFailure("unsupported_response_type", "response_type must be code (the authorization code flow).");
  if (params.code_challenge === undefined || !/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge))
    throw new OAuthFailure("invalid_request", "code_challenge is required: PKCE with S256 (RFC 7636).");
  if (params.code_challenge_method !== "S256")
    throw new OAuthFailure("invalid_request", "code_challenge_method must be S256.");
  if (params.resource !== undefined && params.resource !== "" && !isMcpResource(deps, params.resource))
    throw new OAuthFailure("invalid_target", "resource must be this server's MCP endpoint (…/mcp).");
  const requested = parseScopes(params.scope);
  return {
    client,
    redirectUri,
    redirectNamed: params.redirect_uri !== undefined && params.redirect_uri !== "",
    state: params.state ?? null,
    resource: params.resource === undefined || params.resource === "" ? null : params.resource,
    codeChallenge: params.code_challenge,
    requested: requested.length === 0 ? [...SCOPES] : requested,
  };
}

/**
 * The address clients reach this server at: the public URL's scheme and path, with the host the
 * request came to when it is one this server answers to (a laptop's server is reached as
 * localhost and as 127.0.0.1 alike, and a client checks that the metadata names the host it used).
 */
export function serverBase(deps: Deps, host: string | undefined): string {
  const url = new URL(deps.publicUrl);
  const reached = host !== undefined && deps.origins.allowsHost(host) ? host : url.host;
  return `${url.protocol}//${reached}${url.pathname.replace(/\/$/, "")}`;
}

/** The redirect that ends an authorization request, with its answer's parameters (and RFC 9207's `iss`). */
function redirectWith(redirectUri: string, issuer: string, fields: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(fields)) if (value !== null) url.searchParams.set(name, value);
  url.searchParams.set("iss", issuer);
  return url.toString();
}

/** What the consent page shows: who asks, for what, and what the member can grant where. */
export interface AuthorizationPreview {
  client: { id: string; name: string; uri: string | null; redirect_host: string };
  requested_scopes: Scope[];
  workspaces: { id: string; name: string; role: Role; api_access: boolean; grantable_scopes: Scope[] }[];
}

export async function previewAuthorization(
  deps: Deps,
  user: AccountUser,
  params: AuthorizationParams,
): Promise<AuthorizationPreview> {
  const checked = await checkAuthorization(deps, params);
  const redirect = new URL(checked.redirectUri);
  return {
    client: {
      id: checked.client.id,
      name: checked.client.name,
      uri: checked.client.clientUri,
      redirect_host:
        redirect.protocol === "http:" || redirect.protocol === "https:" ? redirect.host : `${redirect.protocol}//`,
    },
    requested_scopes: checked.requested,
    workspaces: (await workspacesOf(deps, user.id)).map((workspace) => ({
      id: workspace.id,
      name: workspace.name,
      role: workspace.role,
      api_access: deps.plans[workspace.plan].apiAccess,
      grantable_scopes: scopesOf(workspace.role),
    })),
  };
}

export interface ConsentDecision {
  allow: boolean;
  workspaceId?: string | undefined;
  scopes?: string[] | undefined;
}

/**
 * What the member decided on the consent page: refused, the client hears `access_denied`;
 * granted, a code for the workspace and scopes they chose, which must all be within what their
 * role there allows and on a plan with API access.
 */
export async function decide(
  deps: Deps,
  user: AccountUser,
  params: AuthorizationParams,
  decision: ConsentDecision,
  issuer: string,
): Promise<string> {
  const checked = await checkAuthorization(deps, params);
  if (!decision.allow)
    return redirectWith(checked.redirectUri, issuer, {
      error: "access_denied",
      error_description: "The member declined to connect the application.",
      state: checked.state,
    });
  const workspaceId = decision.workspaceId ?? "";
  const role = workspaceId === "" ? null : await membership(deps, workspaceId, user.id);
  if (role === null)
    throw new ApiError("NOT_FOUND", `You are not a member of a workspace with id '${workspaceId}'.`, {
      details: [{ field: "workspace_id", issue: "is not one of your workspaces" }],
    });
  const scopes = checkGrantable(role, decision.scopes ?? []);
  const unasked = scopes.find((scope) => !checked.requested.includes(scope));
  if (unasked !== undefined)
    throw new ApiError("VALIDATION_ERROR", `The application did not ask for '${unasked}'.`, {
      details: [
        { field: "scopes", issue: `may name only what the application asked for: ${checked.requested.join(", ")}` },
      ],
    });
  await requireApiAccess(deps, workspaceId);
  const code = newSecret("code");
  const now = deps.clock.now();
  await deps.db
    .insertInto("oauth_codes")
    .values({
      code_hash: hashSecret(code),
      client_id: checked.client.id,
      workspace_id: workspaceId,
      user_id: user.id,
      scopes: toJson(scopes),
      redirect_uri: checked.redirectNamed ? checked.redirectUri : null,
      code_challenge: checked.codeChallenge,
      resource: checked.resource,
      expires_at: new Date(now.getTime() + CODE_SECONDS * 1000).toISOString(),
      connection_id: null,
    })
    .execute();
  return redirectWith(checked.redirectUri, issuer, { code, state: checked.state });
}

function checkGrantable(role: Role, chosen: string[]): Scope[] {
  if (chosen.length === 0)
    throw new ApiError("VALIDATION_ERROR", "Choose at least one permission to grant.", {
      details: [{ field: "scopes", issue: "must name at least one scope" }],
    });
  const allowed = scopesOf(role);
  const scopes: Scope[] = [];
  for (const [index, raw] of chosen.entries()) {
    if (!isScope(raw))
      throw new ApiError("VALIDATION_ERROR", `Unknown scope '${raw}'.`, {
        details: [{ field: `scopes[${index}]`, issue: `must be one of ${SCOPES.join(", ")}` }],
      });
    if (!allowed.includes(raw))
      throw new ApiError(
        "FORBIDDEN",
        `Your role in this workspace (${role}) cannot grant '${raw}': you can grant ${allowed.map((s) => `'${s}'`).join(", ")}.`,
      );
    if (!scopes.includes(raw)) scopes.push(raw);
  }
  return SCOPES.filter((s) => scopes.includes(s));
}

async function requireApiAccess(deps: Deps, workspaceId: string): Promise<void> {
  const row = await deps.db.selectFrom("workspaces").select("plan").where("id", "=", workspaceId).executeTakeFirst();
  const plan = row !== undefined && isPlanName(row.plan) ? deps.plans[row.plan] : null;
  if (plan === null || !plan.apiAccess)
    throw new ApiError(
      "PLAN_REQUIRED",
      `Connecting an application needs API access, which the Growth and Agency plans have; this workspace is on ${plan?.name ?? "an unknown plan"}.`,
    );
}

export interface TokenSet {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

interface IssuedTokens {
  set: TokenSet;
  row: { access_hash: string; access_expires_at: string; refresh_hash: string; refresh_expires_at: string };
}

function issue(now: Date, scopes: Scope[]): IssuedTokens {
  const access = newSecret("access");
  const refresh = newSecret("refresh");
  return {
    set: {
      access_token: access,
      token_type: "Bearer",
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: refresh,
      scope: scopes.join(" "),
    },
    row: {
      access_hash: hashSecret(access),
      access_expires_at: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000).toISOString(),
      refresh_hash: hashSecret(refresh),
      refresh_expires_at: new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000).toISOString(),
    },
  };
}

const badGrant = (description: string) => new OAuthFailure("invalid_grant", description);

/** The scopes of a grant that the member's role still allows; none when they left the workspace. */
async function stillGrantable(deps: Deps, workspaceId: string, userId: string, scopes: Scope[]): Promise<Scope[]> {
  const role = await membership(deps, workspaceId, userId);
  if (role === null) return [];
  const allowed = scopesOf(role);
  return scopes.filter((scope) => allowed.includes(scope));
}

const scopesOfRow = (value: string): Scope[] => (JSON.parse(value) as string[]).filter(isScope);

/**
 * The authorization code grant: the code once, from the client it was given to, with the PKCE
 * verifier of its challenge. A code presented a second time revokes the connection it opened
 * (RFC 6749 §4.1.2): someone else has it.
 */
export async function exchangeCode(
  deps: Deps,
  client: OAuthClient,
  form: { code?: string; redirect_uri?: string; code_verifier?: string; resource?: string },
): Promise<TokenSet> {
  const code = form.code ?? "";
  if (!isSecretOf("code", code)) throw badGrant("The authorization code is not one this server issued.");
  const row = await deps.db
    .selectFrom("oauth_codes")
    .selectAll()
    .where("code_hash", "=", hashSecret(code))
    .executeTakeFirst();
  if (row === undefined || row.client_id !== client.id)
    throw badGrant("The authorization code is not one this server issued to this client.");
  if (row.connection_id !== null) {
    await revokeConnectionRow(deps, row.connection_id);
    throw badGrant("The authorization code was already used; the connection it opened is revoked.");
  }
  const now = deps.clock.now();
  if (Date.parse(row.expires_at) <= now.getTime()) throw badGrant("The authorization code expired; sign in again.");
  if (row.redirect_uri !== null && form.redirect_uri !== row.redirect_uri)
    throw badGrant("redirect_uri must be the authorization request's, exactly (RFC 6749 §4.1.3).");
  if (form.code_verifier === undefined || !verifierMatches(form.code_verifier, row.code_challenge))
    throw badGrant("code_verifier does not match the code_challenge (PKCE).");
  if (form.resource !== undefined && form.resource !== "" && !isMcpResource(deps, form.resource))
    throw new OAuthFailure("invalid_target", "resource must be this server's MCP endpoint (…/mcp).");
  const scopes = await stillGrantable(deps, row.workspace_id, row.user_id, scopesOfRow(row.scopes));
  if (scopes.length === 0) throw badGrant("The member who granted access no longer has it.");
  const tokens = issue(now, scopes);
  const id = newId("con");
  const opened = await inTransaction(deps, async (tx) => {
    const taken = await tx.db
      .updateTable("oauth_codes")
      .set({ connection_id: id })
      .where("code_hash", "=", row.code_hash)
      .where("connection_id", "is", null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) return false;
    await tx.db
      .insertInto("oauth_connections")
      .values({
        id,
        workspace_id: row.workspace_id,
        user_id: row.user_id,
        client_id: client.id,
        scopes: toJson(scopes),
        ...tokens.row,
        spent_refresh_hash: null,
        created_at: now.toISOString(),
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    return true;
  });
  if (!opened) throw badGrant("The authorization code was already used.");
  return tokens.set;
}

/**
 * The refresh token grant: the token once (it rotates, and the access token it replaces stops
 * working), from its client, while the member still has the workspace; `scope` may narrow.
 */
export async function refresh(
  deps: Deps,
  client: OAuthClient,
  form: { refresh_token?: string; scope?: string; resource?: string },
): Promise<TokenSet> {
  const presented = form.refresh_token ?? "";
  if (!isSecretOf("refresh", presented)) throw badGrant("The refresh token is not one this server issued.");
  const hash = hashSecret(presented);
  const row = await deps.db
    .selectFrom("oauth_connections")
    .selectAll()
    .where("refresh_hash", "=", hash)
    .executeTakeFirst();
  if (row === undefined) {
    // A spent refresh token, presented again: the client and someone else both hold it (RFC 9700
    // §4.14.2). Which one is the thief cannot be told, so the connection ends for both.
    const spent = await deps.db
      .selectFrom("oauth_connections")
      .select(["id", "client_id"])
      .where("spent_refresh_hash", "=", hash)
      .executeTakeFirst();
    if (spent !== undefined && spent.client_id === client.id) {
      await revokeConnectionRow(deps, spent.id);
      throw badGrant("The refresh token was used already; the connection is revoked. Sign in again.");
    }
    throw badGrant("The refresh token is not one this server issued to this client.");
  }
  if (row.client_id !== client.id) throw badGrant("The refresh token is not one this server issued to this client.");
  if (row.revoked_at !== null) throw badGrant("The connection was revoked; sign in again.");
  const now = deps.clock.now();
  if (Date.parse(row.refresh_expires_at) <= now.getTime())
    throw badGrant(`The refresh token expired (unused for ${REFRESH_TOKEN_DAYS} days); sign in again.`);
  if (form.resource !== undefined && form.resource !== "" && !isMcpResource(deps, form.resource))
    throw new OAuthFailure("invalid_target", "resource must be this server's MCP endpoint (…/mcp).");
  let scopes = await stillGrantable(deps, row.workspace_id, row.user_id, scopesOfRow(row.scopes));
  if (scopes.length === 0) {
    await revokeConnectionRow(deps, row.id);
    throw badGrant("The member who granted access no longer has it; the connection is revoked.");
  }
  if (form.scope !== undefined && form.scope.trim() !== "") {
    const asked = parseScopes(form.scope);
    if (asked.length === 0 || asked.some((scope) => !scopes.includes(scope)))
      throw new OAuthFailure("invalid_scope", "scope may only narrow what was granted.");
    scopes = asked;
  }
  const tokens = issue(now, scopes);
  const rotated = await deps.db
    .updateTable("oauth_connections")
    .set({ ...tokens.row, spent_refresh_hash: hash, scopes: toJson(scopes) })
    .where("id", "=", row.id)
    .where("refresh_hash", "=", hash)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (Number(rotated.numUpdatedRows) !== 1) throw badGrant("The refresh token was used already.");
  deps.keyCache.invalidate((key) => key.id === row.id);
  return tokens.set;
}

/** Revokes a connection: both its tokens stop working, in this process at once. */
export async function revokeConnectionRow(deps: Deps, id: string): Promise<void> {
  await deps.db
    .updateTable("oauth_connections")
    .set({ revoked_at: deps.clock.now().toISOString() })
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .execute();
  deps.keyCache.invalidate((key) => key.id === id);
}

/**
 * Token revocation (RFC 7009): either of a connection's tokens, presented by its client, revokes
 * the connection. An unknown token changes nothing and is not an error.
 */
export async function revokeToken(deps: Deps, client: OAuthClient, token: string | undefined): Promise<void> {
  if (token === undefined || token === "") throw new OAuthFailure("invalid_request", "token is required.");
  const value = token;
  const column = isSecretOf("access", value) ? "access_hash" : isSecretOf("refresh", value) ? "refresh_hash" : null;
  if (column === null) return;
  const row = await deps.db
    .selectFrom("oauth_connections")
    .select(["id", "client_id"])
    .where(column, "=", hashSecret(value))
    .executeTakeFirst();
  if (row === undefined || row.client_id !== client.id) return;
  await revokeConnectionRow(deps, row.id);
}
