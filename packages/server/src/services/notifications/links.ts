import type { Deps } from "../context.ts";

/**
 * Links in alert and digest messages are signed (HMAC-SHA256 under the server's secret key, one
 * purpose each), so that no one can make the server redirect anywhere it did not write, or
 * unsubscribe someone else:
 *
 * - `/app/l/<path>.<signature>` redirects to a dashboard page (`/w/…`), the path as written;
 * - `/app/unsubscribe/<member>.<signature>` ends one member's digest of one brand, without signing in.
 */
const LINK = "email-link";
const UNSUBSCRIBE = "digest-unsubscribe";

const TOKEN = /^([A-Za-z0-9_-]{1,1500})\.([A-Za-z0-9_-]{43})$/;

function seal(deps: Pick<Deps, "secrets">, purpose: string, message: string): string {
  const payload = Buffer.from(message, "utf8").toString("base64url");
  return `${payload}.${deps.secrets.sign(purpose, payload)}`;
}

function open(deps: Pick<Deps, "secrets">, purpose: string, token: string): string | null {
  const match = TOKEN.exec(token);
  if (match === null) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  if (!deps.secrets.verify(purpose, payload, signature)) return null;
  return Buffer.from(payload, "base64url").toString("utf8");
}

/** Dashboard pages only: a path of the web app, never another site or the API. */
function isDashboardPath(path: string): boolean {
  return /^\/w\/[A-Za-z0-9_]+(\/[A-Za-z0-9_\-/]*)?$/.test(path);
}

/** A signed link to a page of the dashboard, e.g. `/w/ws_…/brands/prj_…/monitoring`. */
export function dashboardLink(deps: Pick<Deps, "secrets" | "publicUrl">, path: string): string {
  if (!isDashboardPath(path)) throw new Error(`not a dashboard path: ${path}`);
  return `${deps.publicUrl}/app/l/${seal(deps, LINK, path)}`;
}

/** Where a signed link leads, or null when it was not made here (forged, altered, malformed). */
export function dashboardLinkTarget(deps: Pick<Deps, "secrets">, token: string): string | null {
  const path = open(deps, LINK, token);
  return path !== null && isDashboardPath(path) ? path : null;
}

/** Whose digest of which brand an unsubscribe link ends. */
export interface DigestMember {
  workspaceId: string;
  projectId: string;
  userId: string;
}

export function unsubscribeLink(deps: Pick<Deps, "secrets" | "publicUrl">, member: DigestMember): string {
  const message = [member.workspaceId, member.projectId, member.userId].join(" ");
  return `${deps.publicUrl}/app/unsubscribe/${seal(deps, UNSUBSCRIBE, message)}`;
}

export function unsubscribeTarget(deps: Pick<Deps, "secrets">, token: string): DigestMember | null {
  const message = open(deps, UNSUBSCRIBE, token);
  const [workspaceId, projectId, userId, extra] = message?.split(" ") ?? [];
  if (workspaceId === undefined || projectId === undefined || userId === undefined || extra !== undefined) return null;
  return { workspaceId, projectId, userId };
}
