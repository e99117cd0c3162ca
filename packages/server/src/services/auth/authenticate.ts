import { ApiError } from "../../errors/api-error.ts";
import type { VerifiedKey } from "../api-keys/cache.ts";
import { apiKeyColumns } from "../api-keys/columns.ts";
import { hashKey, isWellFormedKey } from "../api-keys/format.ts";
import { type Scope, scopeAllows } from "../api-keys/scopes.ts";
import type { Deps } from "../context.ts";
import { verifyAccessToken } from "../oauth/connections.ts";
import { isAccessToken } from "../oauth/tokens.ts";
import { isPlanName, type Plan } from "../plans/catalog.ts";

export interface Authenticated {
  key: VerifiedKey;
  plan: Plan;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

function invalid(message: string): ApiError {
  return new ApiError("INVALID_API_KEY", message);
}

/** Reads the key from `Authorization: Bearer <key>`, or says precisely what is wrong. */
function parseAuthorization(header: string | undefined): string {
  if (header === undefined || header.trim() === "") {
    throw invalid("No API key provided. Send it as 'Authorization: Bearer sl_live_…'.");
  }
  const match = BEARER.exec(header.trim());
  if (match?.[1] === undefined) {
    throw invalid("The Authorization header must use the Bearer scheme: 'Authorization: Bearer sl_live_…'.");
  }
  return match[1];
}

/**
 * Finds a usable key: well formed, known, not revoked, not expired. Verified keys are cached
 * for a few seconds; expiry is checked on every use against the clock, cached or not.
 */
async function verifyKey(deps: Deps, presented: string): Promise<VerifiedKey> {
  if (!isWellFormedKey(presented)) throw invalid("The API key is not a valid Sightline key.");
  const hash = hashKey(presented);
  const now = deps.clock.now();
  let key = deps.keyCache.get(hash);
  if (key === undefined) {
    const row = await deps.db
      .selectFrom("api_keys")
      .innerJoin("workspaces", "workspaces.id", "api_keys.workspace_id")
      .select([
        "api_keys.id",
        "api_keys.workspace_id",
        "api_keys.scopes",
        "api_keys.expires_at",
        "api_keys.revoked_at",
        "workspaces.plan",
        "workspaces.billing_anchor",
      ])
      .where("api_keys.key_hash", "=", hash)
      .executeTakeFirst();
    if (row === undefined) throw invalid("The API key is not a valid Sightline key.");
    if (row.revoked_at !== null) throw invalid(`The API key was revoked on ${row.revoked_at}.`);
    if (!isPlanName(row.plan)) throw new ApiError("PLAN_REQUIRED", `Unknown plan '${row.plan}'.`);
    key = {
      id: row.id,
      workspaceId: row.workspace_id,
      scopes: apiKeyColumns.scopes.read(row.scopes),
      expiresAt: row.expires_at,
      plan: row.plan,
      billingAnchor: row.billing_anchor,
    };
    deps.keyCache.set(hash, key);
  }
  if (Date.parse(key.expiresAt) <= now.getTime()) {
    throw invalid(`The API key expired on ${key.expiresAt}; create a new one in Settings.`);
  }
  deps.lastUsed.touch(key.id, now);
  return key;
}

/** What a door takes: API keys only (/v1), or also the access tokens of OAuth sign-in (/mcp, ADR 0038). */
export type Credentials = "keys" | "keys-and-tokens";

/** An access token standing for its connection's key: expiry and last use as a key's. */
async function verifyToken(deps: Deps, presented: string, accepted: Credentials): Promise<VerifiedKey> {
  if (accepted === "keys")
    throw invalid(
      "This is an access token of Sightline's MCP sign-in; it opens /mcp only. The API takes an API key (Settings → API keys).",
    );
  const key = await verifyAccessToken(deps, presented);
  const now = deps.clock.now();
  if (Date.parse(key.expiresAt) <= now.getTime())
    throw invalid(`The access token expired on ${key.expiresAt}; refresh it with the refresh token.`);
  deps.lastUsed.touch(key.id, now);
  return key;
}

/** Key valid, then plan has API access: the first two steps of the check order. */
export async function authenticate(
  deps: Deps,
  authorization: string | undefined,
  accepted: Credentials = "keys",
): Promise<Authenticated> {
  const presented = parseAuthorization(authorization);
  const key = isAccessToken(presented)
    ? await verifyToken(deps, presented, accepted)
    : await verifyKey(deps, presented);
  const plan = deps.plans[key.plan];
  if (!plan.apiAccess) {
    throw new ApiError(
      "PLAN_REQUIRED",
      `API access needs the Growth or Agency plan; this workspace is on ${plan.name}.`,
    );
  }
  return { key, plan };
}

export function authorize(auth: Authenticated, required: Scope, method: string): void {
  if (scopeAllows(auth.key.scopes, required, method)) return;
  const accepted = method === "GET" ? `'${required}' or 'read'` : `'${required}'`;
  throw new ApiError(
    "INSUFFICIENT_SCOPE",
    `This endpoint needs the ${accepted} scope; the key has ${auth.key.scopes.map((s) => `'${s}'`).join(", ")}.`,
  );
}
