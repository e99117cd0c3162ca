import { queryOptions } from "@tanstack/react-query";
import { appCall } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import type {
  AuthorizationDecision,
  AuthorizationParams,
  AuthorizationPreview,
  ConnectedApp,
} from "../../lib/types.ts";

/** Who asks, for what, and what the member can grant in each of their workspaces. */
export function authorizationQuery(params: AuthorizationParams) {
  return queryOptions({
    queryKey: keys.authorization(params),
    queryFn: ({ signal }): Promise<AuthorizationPreview> =>
      appCall("previewAuthorization", { query: params }, { signal }),
    // A request is decided once; coming back to the tab must not ask again behind the member's back.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The member's answer: where to send the browser, back to the application. */
export async function decideAuthorization(decision: AuthorizationDecision): Promise<string> {
  const { redirect_to } = await appCall("decideAuthorization", { body: decision });
  return redirect_to;
}

export function connectedAppsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "connected-apps"),
    queryFn: ({ signal }) => appCall("listConnectedApps", { params: { workspace: workspaceId } }, { signal }),
  });
}

export function disconnectApp(workspaceId: string, id: string): Promise<ConnectedApp> {
  return appCall("disconnectApp", { params: { workspace: workspaceId, id } });
}
