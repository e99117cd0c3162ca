import type { FastifyReply } from "fastify";
import { ApiError } from "../../errors/api-error.ts";
import type { Deps } from "../../services/context.ts";
import type { WindowCount, WindowCounter } from "../../services/rate-limits/counter.ts";
import type { RateDecision } from "../../services/rate-limits/rate-limits.ts";
import { setRateHeaders } from "../rate-limit.ts";

/**
 * The dashboard's rate limits (docs/dashboard-api.md): per member, so that one browser tab cannot
 * starve the others, and per workspace, so that a team together stays within what one process
 * serves comfortably. Apart from the plan's API allowance: using the dashboard never spends what
 * the workspace's programs may call.
 */
export const MEMBER_LIMITS = { perMemberPerMinute: 600, perWorkspacePerMinute: 2_000 } as const;

const WINDOW_SECONDS = 60;

function decision(limit: number, count: WindowCount): RateDecision {
  const retryAfter = Math.max(1, Math.ceil(count.msBeforeReset / 1000));
  return {
    allowed: count.count <= limit,
    limit,
    remaining: Math.max(0, limit - count.count),
    resetAt: Math.ceil((Date.now() + count.msBeforeReset) / 1000),
    retryAfter,
  };
}

/** Counts a member's request, sets the rate-limit headers of the tighter limit, refuses past either. */
export class MemberLimits {
  readonly #members: WindowCounter;
  readonly #workspaces: WindowCounter;
  readonly #on: boolean;

  constructor(deps: Deps) {
    // Off with the plans' rate limits (SIGHTLINE_RATE_LIMITS=off): a single-tenant install.
    this.#on = deps.rateLimits !== null;
    this.#members = deps.counters.counter("dashboard:member", WINDOW_SECONDS);
    this.#workspaces = deps.counters.counter("dashboard:workspace", WINDOW_SECONDS);
  }

  async hit(reply: FastifyReply, userId: string, workspaceId: string | null): Promise<void> {
    if (!this.#on) return;
    const [member, workspace] = await Promise.all([
      this.#members.hit(userId),
      workspaceId === null ? null : this.#workspaces.hit(workspaceId),
    ]);
    const decisions = [
      decision(MEMBER_LIMITS.perMemberPerMinute, member),
      ...(workspace === null ? [] : [decision(MEMBER_LIMITS.perWorkspacePerMinute, workspace)]),
    ];
    const refused = decisions.find((d) => !d.allowed);
    const shown = refused ?? decisions.reduce((tight, d) => (d.remaining < tight.remaining ? d : tight));
    setRateHeaders(reply, shown);
    if (refused !== undefined) {
      throw new ApiError(
        "RATE_LIMIT_EXCEEDED",
        `Too many requests: the limit is ${refused.limit} a minute ${refused === decisions[0] ? "per member" : "per workspace"}; it resets in ${refused.retryAfter} s.`,
        { retryAfter: refused.retryAfter },
      );
    }
  }
}
