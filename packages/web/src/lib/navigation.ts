import { ApiError } from "./api.ts";

/** A path inside this app that is safe to go back to after signing in (never another site). */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return undefined;
  }
  return value;
}

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** Pages reachable without a session: a 401 there is not a reason to go to sign in. */
const PUBLIC_PREFIXES = ["/setup", "/sign-in", "/sign-up", "/forgot-password", "/reset-password", "/invite/"];

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(prefix));
}

const LAST_WORKSPACE = "sightline.last-workspace";

/** The workspace the user last opened in this browser (an id, nothing secret). */
export function lastWorkspace(): string | null {
  try {
    return window.localStorage.getItem(LAST_WORKSPACE);
  } catch {
    return null;
  }
}

export function rememberWorkspace(id: string): void {
  try {
    window.localStorage.setItem(LAST_WORKSPACE, id);
  } catch {
    // Storage may be unavailable (private mode); the app then opens the first workspace.
  }
}
