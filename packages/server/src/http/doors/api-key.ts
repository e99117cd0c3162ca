import { ApiError } from "../../errors/api-error.ts";
import type { Authenticated } from "../../services/auth/authenticate.ts";
import type { Deps, ServiceContext } from "../../services/context.ts";
import { admit } from "../authenticate-request.ts";
import type { Route } from "../route.ts";
import type { Door } from "../runner.ts";

/** The service context of a request made with an API key: its workspace, its key, its scopes. */
export function keyContext(deps: Deps, auth: Authenticated, requestId: string): ServiceContext {
  return {
    ...deps,
    workspace: { id: auth.key.workspaceId, plan: auth.plan, billingAnchor: auth.key.billingAnchor },
    actor: { type: "api_key", id: auth.key.id },
    scopes: auth.key.scopes,
    requestId,
  };
}

/**
 * API v1 under `/v1`, for a Bearer key: key valid → plan has API access → the workspace's rate
 * limit (its headers on every answer) → scope, in DESIGN.md §2's order; each request is metered
 * as the workspace's API usage.
 */
export function apiKeyDoor(deps: Deps): Door<Route> {
  return {
    prefix: "/v1",
    prefixParams: [],
    via: "api",
    async admit(request, reply, route) {
      await admit(deps, request, reply, true, route);
      if (request.auth === null) throw new ApiError("INVALID_API_KEY", "No API key provided.");
      const ctx = keyContext(deps, request.auth, request.id);
      return { caller: { ctx }, workspaceId: ctx.workspace.id };
    },
  };
}
