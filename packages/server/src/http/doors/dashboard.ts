import { ApiError } from "../../errors/api-error.ts";
import type { Deps } from "../../services/context.ts";
import { AddressLimit, PUBLIC_ROUTE_LIMITS } from "../address-limits.ts";
import type { SessionRoute } from "../route.ts";
import type { Door } from "../runner.ts";
import { workspaceParam } from "./member.ts";
import type { MemberLimits } from "./member-limits.ts";
import { assertSameOrigin, requireMember, requireUser, webHeaders } from "./session.ts";

function tooMany(seconds: number, what: string): ApiError {
  return new ApiError("RATE_LIMIT_EXCEEDED", `Too many ${what} from this address; try again in ${seconds} s.`, {
    retryAfter: seconds,
  });
}

/**
 * The dashboard's own routes under `/app/api` (accounts, members, invitations, API keys), by the
 * access each declares: anyone (counted per address while signed out; sign-ups counted apart), a
 * signed-in user, or a member of the workspace in the path with a permission. Same origin first;
 * signed-in callers count against the dashboard's rate limits like the member door's.
 */
export function dashboardDoor(deps: Deps, limits: MemberLimits): Door<SessionRoute> {
  const anonymous = new AddressLimit(deps.counters, "public:address", PUBLIC_ROUTE_LIMITS.perAddressPerMinute, 60);
  const signUps = new AddressLimit(
    deps.counters,
    "signup:address",
    PUBLIC_ROUTE_LIMITS.signUpsPerAddressPer10Minutes,
    600,
  );
  return {
    prefix: "/app/api",
    prefixParams: [],
    via: "dashboard",
    async admit(request, reply, route) {
      assertSameOrigin(request, deps.origins);
      const access = route.access;
      if (access.kind === "public") {
        const user = await deps.identity.currentUser(webHeaders(request));
        // Counted per address while nobody is signed in; a member's pages count as a member's.
        if (user === null) {
          const wait = await anonymous.wait(request);
          if (wait > 0) throw tooMany(wait, "requests");
        } else {
          await limits.hit(reply, user.id, null);
        }
        if (route.operationId === "signUp") {
          const wait = await signUps.wait(request);
          if (wait > 0) throw tooMany(wait, "sign-ups");
        }
        return { caller: { user }, workspaceId: null };
      }
      const user = await requireUser(deps, request);
      if (access.kind === "user") {
        await limits.hit(reply, user.id, null);
        return { caller: { user }, workspaceId: null };
      }
      const { ctx, member } = await requireMember(deps, user, workspaceParam(request.params), access.permission);
      await limits.hit(reply, user.id, ctx.workspace.id);
      return { caller: { user, ctx, member }, workspaceId: ctx.workspace.id };
    },
  };
}
