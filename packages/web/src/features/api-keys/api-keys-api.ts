import { queryOptions } from "@tanstack/react-query";
import { appCall } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import type { ApiKey, CreatedApiKey, Scope } from "../../lib/types.ts";

export function apiKeysQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "api-keys"),
    queryFn: ({ signal }) => appCall("listApiKeys", { params: { workspace: workspaceId } }, { signal }),
  });
}

/** The answer holds the key's value: callers keep it in component state only, never in the query cache. */
export function createApiKey(workspaceId: string, name: string, scopes: Scope[]): Promise<CreatedApiKey> {
  return appCall("createApiKey", { params: { workspace: workspaceId }, body: { name, scopes } });
}

export function revokeApiKey(workspaceId: string, keyId: string): Promise<ApiKey> {
  return appCall("revokeApiKey", { params: { workspace: workspaceId, id: keyId } });
}
