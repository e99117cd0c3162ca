import { ApiError } from "../errors/api-error.ts";
import { keyContext } from "../http/doors/api-key.ts";
import { type Progress, RawResponse, type Route, WithStatus } from "../http/route.ts";
import { callRoute } from "../http/runner.ts";
import { scopeAllows } from "../services/api-keys/scopes.ts";
import type { Authenticated } from "../services/auth/authenticate.ts";
import type { Deps } from "../services/context.ts";
import { serializeThrough } from "./output.ts";

/** Refuses a request whose key lacks the route's scope (`read` too for a GET), naming what it was for. */
export function authorizeRoute(auth: Authenticated, route: Route, what: string): void {
  const { scope, method } = route;
  if (scopeAllows(auth.key.scopes, scope, method)) return;
  const accepted = method === "GET" ? `'${scope}' or 'read'` : `'${scope}'`;
  throw new ApiError(
    "INSUFFICIENT_SCOPE",
    `The ${what} needs the ${accepted} scope; the key has ${auth.key.scopes.map((s) => `'${s}'`).join(", ")}.`,
  );
}

/** The input of a route as a door hands it over, for the parts an MCP request fills. */
export interface RouteInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/**
 * A route of API v1 run for an admitted MCP request, as every door runs it (MCP is a door of API
 * v1 for API keys): the scope first, then the route's own handler; its answer as the JSON its
 * response schema shapes.
 */
export async function runRoute(
  deps: Deps,
  route: Route,
  input: RouteInput,
  admission: { auth: Authenticated; requestId: string },
  signal: AbortSignal,
  progress: Progress | null = null,
  what = route.operationId,
): Promise<{ text: string; json: Record<string, unknown> }> {
  authorizeRoute(admission.auth, route, what);
  const answer = await callRoute(route, {
    params: input.params,
    query: input.query ?? {},
    body: input.body,
    headers: {},
    address: "",
    host: "",
    rate: null,
    via: "api",
    signal,
    stream: null,
    progress,
    caller: { ctx: keyContext(deps, admission.auth, admission.requestId) },
  });
  if (answer instanceof RawResponse) throw new Error(`MCP ${what}: its route answered ${answer.contentType}`);
  const result = answer instanceof WithStatus ? answer.body : answer;
  const text = serializeThrough(route.success.schema, result);
  return { text, json: JSON.parse(text) as Record<string, unknown> };
}
