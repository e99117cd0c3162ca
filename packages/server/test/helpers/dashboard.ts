import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { type Harness, randomAddress } from "./harness.ts";

/** The harness's public URL: the origin the dashboard's pages have. */
export const ORIGIN = "http://localhost:8080";

export interface Session {
  cookie: string;
  user: { id: string; name: string; email: string };
  workspaceId: string;
}

export interface DashboardCall {
  cookie?: string;
  body?: unknown;
  /** The page's origin; `null` sends none. */
  origin?: string | null;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/** A request to the dashboard's API the way the web app sends it (same origin, JSON, the cookie). */
export function dashboard(
  h: Harness,
  method: string,
  url: string,
  call: DashboardCall = {},
): Promise<LightMyRequestResponse> {
  const origin = call.origin === undefined ? ORIGIN : call.origin;
  return h.app.inject({
    method: method as "GET",
    url,
    remoteAddress: call.remoteAddress ?? randomAddress(),
    headers: {
      ...(origin === null ? {} : { origin }),
      ...(call.cookie === undefined ? {} : { cookie: call.cookie }),
      ...(call.body === undefined ? {} : { "content-type": "application/json" }),
      ...call.headers,
    },
    ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
  });
}

/** The session cookie a response sets, as a `Cookie` header. */
function sessionCookie(response: LightMyRequestResponse): string {
  const set = response.headers["set-cookie"];
  const all = Array.isArray(set) ? set : set === undefined ? [] : [set];
  const session = all.find((cookie) => cookie.startsWith("sightline.session_token="));
  if (session === undefined) throw new Error(`no session cookie in ${response.statusCode} ${response.body}`);
  return session.split(";")[0] ?? "";
}

let counter = 0;

export function uniqueEmail(name = "user"): string {
  counter++;
  return `${name}.${Date.now().toString(36)}.${counter}@example.com`;
}

export const PASSWORD = "a long enough password";

/** Signs up (open sign-up, or with an invitation) and returns the new session. */
export async function signUp(
  h: Harness,
  input: { name?: string; email?: string; password?: string; workspace_name?: string; invitation?: string } = {},
): Promise<Session> {
  const res = await dashboard(h, "POST", "/app/api/signup", {
    body: {
      name: input.name ?? "Test user",
      email: input.email ?? uniqueEmail(),
      password: input.password ?? PASSWORD,
      ...(input.workspace_name === undefined ? {} : { workspace_name: input.workspace_name }),
      ...(input.invitation === undefined ? {} : { invitation: input.invitation }),
      // Asked for of the first account only; ignored afterwards.
      setup_code: h.deps.setupCode,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  return { cookie: sessionCookie(res), user: body.user, workspaceId: body.workspace_id };
}

export async function signIn(h: Harness, email: string, password: string, remoteAddress?: string) {
  return dashboard(h, "POST", "/app/api/auth/sign-in/email", {
    body: { email, password },
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  });
}

/** Invites `email` into the session's workspace with `role`; returns the token of its link. */
export async function invite(h: Harness, session: Session, email: string, role: string): Promise<string> {
  const res = await dashboard(h, "POST", `/app/api/workspaces/${session.workspaceId}/invitations`, {
    cookie: session.cookie,
    body: { email, role },
  });
  expect(res.statusCode, res.body).toBe(201);
  const link = res.json().link as string;
  return link.slice(link.lastIndexOf("/") + 1);
}
