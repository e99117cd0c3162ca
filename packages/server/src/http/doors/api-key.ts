import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../errors/api-error.ts";
import type { Authenticated } from "../../services/auth/authenticate.ts";
import { unavailableError } from "../../services/availability.ts";
import type { Deps, ServiceContext } from "../../services/context.ts";
import { bearsIngestToken, type IngestCaller, verifyIngestToken } from "../../services/traffic/ingest-tokens.ts";
import { admit } from "../authenticate-request.ts";
import { applyRateLimit } from "../rate-limit.ts";
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
      if (route.ingestToken === true && bearsIngestToken(request.headers.authorization))
        return admitIngestToken(deps, request, reply);
      await admit(deps, request, reply, true, route);
      if (request.auth === null) throw new ApiError("INVALID_API_KEY", "No API key provided.");
      const ctx = keyContext(deps, request.auth, request.id);
      return { caller: { ctx }, workspaceId: ctx.workspace.id };
    },
  };
}

/** A plan without API access has no request allowance: its drains push within this one. */
const DRAIN_REQUESTS_PER_MINUTE = 120;

/**
 * A log drain's push with its brand's ingest token, on the one route that takes one: the token
 * valid → the workspace's rate limit → the token's brand is the one the path names. It acts with
 * the `projects` scope on that brand only; plans without API access push logs too, since the
 * token opens no API.
 */
async function admitIngestToken(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  let caller: IngestCaller;
  try {
    caller = await verifyIngestToken(deps, request.headers.authorization);
  } catch (error) {
    const unavailable = unavailableError(error, true);
    if (unavailable !== null) throw unavailable;
    await applyRateLimit(deps, request, reply, { address: request.ip });
    throw error;
  }
  await applyRateLimit(deps, request, reply, {
    workspaceId: caller.workspace.id,
    limit: caller.workspace.plan.requestsPerMinute ?? DRAIN_REQUESTS_PER_MINUTE,
  });
  const projectId = (request.params as Record<string, unknown>).id;
  if (projectId !== caller.projectId) {
    throw new ApiError(
      "INVALID_API_KEY",
      `This ingest token is for brand '${caller.projectId}'; push to /v1/projects/${caller.projectId}/traffic/logs.`,
    );
  }
  const ctx: ServiceContext = {
    ...deps,
    workspace: caller.workspace,
    actor: { type: "ingest_token", id: caller.tokenId },
    scopes: ["projects"],
    requestId: request.id,
  };
  return { caller: { ctx }, workspaceId: ctx.workspace.id };
}
