import { queryOptions } from "@tanstack/react-query";
import { api, ws } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import type { ApiKey, CreatedApiKey, DataList, Scope } from "../../lib/types.ts";

export function apiKeysQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "api-keys"),
    queryFn: ({ signal }) => api<DataList<ApiKey>>(ws(workspaceId, "/api-keys"), { signal }),
  });
}

/** The answer holds the key's value: callers keep it in component state only, never in the query cache. */
export function createApiKey(workspaceId: string, name: string, scopes: Scope[]): Promise<CreatedApiKey> {
  return api<CreatedApiKey>(ws(workspaceId, "/api-keys"), { method: "POST", body: { name, scopes } });
}

export function revokeApiKey(workspaceId: string, keyId: string): Promise<ApiKey> {
  return api<ApiKey>(ws(workspaceId, `/api-keys/${encodeURIComponent(keyId)}`), { method: "DELETE" });
}
