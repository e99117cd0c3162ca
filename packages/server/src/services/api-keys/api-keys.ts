import type { ApiKeysTable } from "../../db/tables.ts";
import { type ErrorDetail, notFound, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { Deps } from "../context.ts";
import { apiKeyColumns } from "./columns.ts";
import { displayStart, generateKey, hashKey, KEY_LIFETIME_MS } from "./format.ts";
import { isScope, SCOPES, type Scope } from "./scopes.ts";

export interface ApiKeyView {
  id: string;
  object: "api_key";
  workspace_id: string;
  name: string;
  /** The first characters of the key, to recognise it; the rest is never stored. */
  start: string;
  scopes: Scope[];
  status: "active" | "revoked" | "expired";
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface CreatedApiKey extends ApiKeyView {
  /** The key itself: returned by this call only. */
  key: string;
}

export interface CreateApiKeyInput {
  workspaceId: string;
  name: string;
  scopes: string[];
}

function toView(row: ApiKeysTable, now: Date): ApiKeyView {
  const status =
    row.revoked_at !== null ? "revoked" : Date.parse(row.expires_at) <= now.getTime() ? "expired" : "active";
  return {
    id: row.id,
    object: "api_key",
    workspace_id: row.workspace_id,
    name: row.name,
    start: row.start,
    scopes: apiKeyColumns.scopes.read(row.scopes),
    status,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
  };
}

function checkCreateInput(input: CreateApiKeyInput): { name: string; scopes: Scope[] } {
  const details: ErrorDetail[] = [];
  const name = input.name.trim();
  if (name.length === 0) details.push({ field: "name", issue: "must not be empty" });
  if (name.length > 100) details.push({ field: "name", issue: "must be at most 100 characters" });
  const scopes: Scope[] = [];
  for (const [index, raw] of input.scopes.entries()) {
    const scope = raw.trim();
    if (!isScope(scope)) {
      details.push({ field: `scopes[${index}]`, issue: `unknown scope '${raw}'; scopes are ${SCOPES.join(", ")}` });
    } else if (!scopes.includes(scope)) {
      scopes.push(scope);
    }
  }
  if (input.scopes.length === 0) details.push({ field: "scopes", issue: "must name at least one scope" });
  if (details.length > 0) throw validationError(details);
  return { name, scopes: SCOPES.filter((s) => scopes.includes(s)) };
}

/** Creates a key; the returned `key` is the only copy that will ever exist outside its hash. */
export async function createApiKey(deps: Deps, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const { name, scopes } = checkCreateInput(input);
  const workspace = await deps.db
    .selectFrom("workspaces")
    .select("id")
    .where("id", "=", input.workspaceId)
    .executeTakeFirst();
  if (workspace === undefined) throw notFound("workspace", input.workspaceId);

  const key = generateKey();
  const now = deps.clock.now();
  const row: ApiKeysTable = {
    id: newId("key"),
    workspace_id: workspace.id,
    name,
    key_hash: hashKey(key),
    start: displayStart(key),
    scopes: toJson(scopes),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + KEY_LIFETIME_MS).toISOString(),
    revoked_at: null,
    last_used_at: null,
  };
  await deps.db.insertInto("api_keys").values(row).execute();
  return { ...toView(row, now), key };
}

export async function listApiKeys(deps: Deps, workspaceId: string): Promise<ApiKeyView[]> {
  const rows = await deps.db
    .selectFrom("api_keys")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const now = deps.clock.now();
  return rows.map((row) => toView(row, now));
}

/**
 * Revokes a key at once: in this process immediately, in others when their cache entry
 * expires (within ApiKeyCache.ttlMs). Revoking a revoked key changes nothing.
 */
export async function revokeApiKey(deps: Deps, input: { keyId: string; workspaceId?: string }): Promise<ApiKeyView> {
  let query = deps.db.selectFrom("api_keys").selectAll().where("id", "=", input.keyId);
  if (input.workspaceId !== undefined) query = query.where("workspace_id", "=", input.workspaceId);
  const row = await query.executeTakeFirst();
  if (row === undefined) throw notFound("API key", input.keyId);
  const now = deps.clock.now();
  if (row.revoked_at === null) {
    row.revoked_at = now.toISOString();
    await deps.db
      .updateTable("api_keys")
      .set({ revoked_at: row.revoked_at })
      .where("id", "=", row.id)
      .where("revoked_at", "is", null)
      .execute();
  }
  deps.keyCache.invalidate((key) => key.id === row.id);
  return toView(row, now);
}
