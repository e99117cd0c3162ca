import type { FastifyRequest } from "fastify";
import { ApiError } from "../../errors/api-error.ts";
import type { ServerOrigins } from "../../lib/origins.ts";
import type { AccountUser } from "../../services/accounts/identity.ts";
import { type Membership, membership } from "../../services/accounts/members.ts";
import { can, type Permission, scopesOf } from "../../services/accounts/roles.ts";
import type { Deps, ServiceContext } from "../../services/context.ts";
import { workspaceContext } from "../../services/workspaces/workspaces.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A request's headers as a Web `Headers`, for the authentication library, with the client's address. */
export function identityHeaders(
  raw: Readonly<Record<string, string | string[] | undefined>>,
  address: string,
): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // The client's address as Fastify sees it (TRUST_PROXY decides), never what the client claims.
  headers.set("x-sightline-client-ip", address);
  return headers;
}

export function webHeaders(request: FastifyRequest): Headers {
  return identityHeaders(request.headers, request.ip);
}

/**
 * CSRF: a request that changes something must come from a page of this server. Browsers send
 * `Origin` on every such request (and `Sec-Fetch-Site`); a form on another site sends its own
 * origin, or "cross-site". Which origins are this server's is configuration (lib/origins.ts): the
 * request's `Host` is only compared with it. The session cookie is also `SameSite=Lax`.
 */
export function assertSameOrigin(request: FastifyRequest, origins: ServerOrigins): void {
  if (SAFE_METHODS.has(request.method)) return;
  const site = headerValue(request.headers["sec-fetch-site"]);
  const referer = headerValue(request.headers.referer);
  let origin = headerValue(request.headers.origin);
  if (origin === undefined && referer !== undefined) {
    try {
      origin = new URL(referer).origin;
    } catch {
      origin = undefined;
    }
  }
  if (!origins.trustsOrigin(origin, request.host) || site === "cross-site") {
    throw new ApiError("FORBIDDEN", "Cross-site request refused: changes come from Sightline's own pages only.");
  }
}

export async function requireUser(deps: Deps, request: FastifyRequest): Promise<AccountUser> {
  const user = await deps.identity.currentUser(webHeaders(request));
  if (user === null) throw new ApiError("UNAUTHENTICATED", "Sign in to continue.");
  return user;
}

/**
 * The user's membership of the workspace a request names, allowed to do `permission`. A workspace
 * the user is not a member of does not exist, as far as they can tell.
 */
export async function requireMember(
  deps: Deps,
  user: AccountUser,
  workspaceId: string,
  permission: Permission,
): Promise<{ ctx: ServiceContext; member: Membership }> {
  const role = await membership(deps, workspaceId, user.id);
  if (role === null) throw new ApiError("NOT_FOUND", `No workspace with id '${workspaceId}' exists for you.`);
  if (!can(role, permission)) {
    throw new ApiError("FORBIDDEN", `Your role in this workspace (${role}) does not allow this.`);
  }
  const ctx = { ...(await workspaceContext(deps, workspaceId, { type: "user", id: user.id })), scopes: scopesOf(role) };
  return { ctx, member: { userId: user.id, role } };
}
