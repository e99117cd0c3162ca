import { ApiError } from "../../errors/api-error.ts";
import { can, scopesOf } from "../../services/accounts/roles.ts";
import { scopeAllows } from "../../services/api-keys/scopes.ts";
import type { Deps } from "../../services/context.ts";
import type { Route } from "../route.ts";
import type { Door } from "../runner.ts";
import { MemberLimits } from "./member-limits.ts";
import { assertSameOrigin, requireMember, requireUser } from "./session.ts";

/** Where a member reaches API v1: under the workspace the request names. */
const MEMBER_PREFIX = "/app/api/workspaces/:workspace/v1";

/** The workspace a request's path names (`:workspace`). */
export function workspaceParam(params: unknown): string {
  const value = (params as Record<string, unknown>).workspace;
  if (typeof value !== "string") throw new ApiError("NOT_FOUND", "No workspace named in the path.");
  return value;
}

/**
 * API v1 for a signed-in member (the dashboard's mount of the same route table): same origin →
 * session → membership of the workspace in the path → the dashboard's rate limits (per member and
 * per workspace, with their headers) → the member's role as scopes, and as the permission a route
 * may ask of members beyond its scope (`memberPermission`). Not metered as API usage: the
 * usage figures count what the workspace's programs call.
 */
export function memberDoor(deps: Deps, limits: MemberLimits = new MemberLimits(deps)): Door<Route> {
  return {
    prefix: MEMBER_PREFIX,
    prefixParams: ["workspace"],
    via: "dashboard",
    async admit(request, reply, route) {
      assertSameOrigin(request, deps.origins);
      const user = await requireUser(deps, request);
      const { ctx, member } = await requireMember(deps, user, workspaceParam(request.params), "read");
      await limits.hit(reply, user.id, ctx.workspace.id);
      const allowed =
        scopeAllows(scopesOf(member.role), route.scope, route.method) &&
        (route.memberPermission === undefined || can(member.role, route.memberPermission));
      if (!allowed) {
        throw new ApiError("FORBIDDEN", `Your role in this workspace (${member.role}) does not allow this.`);
      }
      return { caller: { ctx }, workspaceId: ctx.workspace.id };
    },
  };
}
