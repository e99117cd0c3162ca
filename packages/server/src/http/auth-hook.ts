import type { FastifyReply, FastifyRequest } from "fastify";
import { type Authenticated, authenticate, authorize } from "../services/auth/authenticate.ts";
import type { Deps } from "../services/context.ts";
import type { Route } from "./route.ts";

declare module "fastify" {
  interface FastifyRequest {
    auth: Authenticated | null;
  }
  interface FastifyContextConfig {
    route?: Route;
  }
}

/**
 * Runs before the body is parsed, so the check order of DESIGN.md §2 holds even for a
 * malformed body: key valid → plan has API access → (rate limit) → scope → validation.
 */
export function makeAuthHook(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.header("x-request-id", request.id);
    const route = request.routeOptions.config.route;
    if (route === undefined) return;
    const auth = await authenticate(deps, request.headers.authorization);
    authorize(auth, route.scope, route.method);
    request.auth = auth;
  };
}
