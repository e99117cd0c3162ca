import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import type { Dialect } from "../../../server/src/db/database.ts";
import { watchProblems } from "../../../server/test/helpers/browser.ts";
import { createTestDatabase, type TestDatabase } from "../../../server/test/helpers/databases.ts";
import { TEST_SECRET_KEY } from "../../../server/test/helpers/harness.ts";
import { freePort, type ServerProcess, startServerProcess } from "../../../server/test/helpers/processes.ts";

/**
 * A Sightline for the browser tests: `sightline all` (API, worker and the built app in one process)
 * on a fresh database of the dialect, at a public URL known before it starts, with what it was
 * given or gave out that is secret (passwords, keys, tokens, session cookies), none of which may
 * reach its logs.
 */
export interface Installation {
  base: string;
  /** Its database, for a test that must reach it as a second process would (the server reads it first). */
  database: TestDatabase["config"];
  server: ServerProcess;
  secrets: string[];
  stop(): Promise<void>;
}

export async function startInstallation(
  dialect: Dialect,
  env: Record<string, string> = {},
  /** `serve` for the API and the app without the worker (nothing scheduled runs). */
  mode: "all" | "serve" = "all",
): Promise<Installation> {
  const db = await createTestDatabase(dialect);
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = await startServerProcess(
      {
        DATABASE_URL: db.url,
        PORT: String(port),
        SIGHTLINE_PUBLIC_URL: base,
        SIGHTLINE_SECRET_KEY: TEST_SECRET_KEY.toString("base64"),
        ...env,
      },
      mode,
    );
    const stop = async () => {
      server.child.kill("SIGTERM");
      await server.exited;
      await db.drop();
    };
    return { base, database: db.config, server, secrets: [], stop };
  } catch (error) {
    await db.drop();
    throw error;
  }
}

/** An installation starting in the background, for the one test of a file that needs one nobody has set up. */
export interface BackgroundInstallation {
  /** Waits until it has started; a failure to start is the failure of the test that waits. */
  ready(): Promise<Installation>;
  /** Stops it, if it started. */
  stop(): Promise<void>;
}

export function startInBackground(dialect: Dialect, env: Record<string, string> = {}): BackgroundInstallation {
  const starting = startInstallation(dialect, env);
  starting.catch(() => undefined);
  return {
    ready: () => starting,
    stop: () => starting.then((installation) => installation.stop()).catch(() => undefined),
  };
}

export interface Account {
  name: string;
  email: string;
  password: string;
}

/** A signed-in session: the cookies the server set. */
export interface Session {
  cookies: { name: string; value: string }[];
}

async function send(
  installation: Installation,
  session: Session | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${installation.base}/app/api${path}`, {
    method,
    headers: {
      origin: installation.base,
      ...(session === null ? {} : { cookie: session.cookies.map((c) => `${c.name}=${c.value}`).join("; ") }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/**
 * A request to the dashboard's API (`/app/api…`) as the web app sends it: same origin, JSON, the
 * session's cookies. Anything but a 2xx is an error, with the body that says why.
 */
export async function appCall<T>(
  installation: Installation,
  session: Session,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await send(installation, session, method, path, body);
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /app/api${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function signedIn(installation: Installation, account: Account, response: Response): Promise<Session> {
  if (!response.ok) throw new Error(`${account.email} was not signed in: ${response.status} ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((line) => {
    const pair = line.split(";")[0] ?? "";
    const at = pair.indexOf("=");
    return { name: pair.slice(0, at), value: pair.slice(at + 1) };
  });
  if (!cookies.some((cookie) => cookie.name.includes("session"))) throw new Error("no session cookie was set");
  installation.secrets.push(
    account.password,
    ...cookies.filter((cookie) => cookie.name.includes("session")).map((cookie) => cookie.value),
  );
  return { cookies };
}

/**
 * Creates an account through `/app/api/signup`: the installation's first (with the setup code it
 * printed) and its workspace, or an invited one that joins the invitation's workspace.
 */
export async function signUp(
  installation: Installation,
  account: Account,
  options: { workspace_name?: string; invitation?: string } = {},
): Promise<{ session: Session; workspaceId: string }> {
  const setup = options.invitation === undefined ? { setup_code: await installation.server.setupCode() } : {};
  const response = await send(installation, null, "POST", "/signup", { ...account, ...options, ...setup });
  const session = await signedIn(installation, account, response);
  const { workspace_id } = (await response.json()) as { workspace_id: string };
  return { session, workspaceId: workspace_id };
}

/** Signs in with e-mail and password, as the sign-in page does. */
export async function signIn(installation: Installation, account: Account): Promise<Session> {
  const response = await send(installation, null, "POST", "/auth/sign-in/email", {
    email: account.email,
    password: account.password,
  });
  return signedIn(installation, account, response);
}

export interface SignedInPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors of the page (helpers/browser.ts). */
  problems: string[];
}

/** A browser context of its own (nothing shared with another test's) and a page in it, signed in to nothing yet. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<SignedInPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  return { context, page, problems: watchProblems(page) };
}

/** Signs the page's context in: the session's cookies set on it. */
export async function withSession(
  opened: SignedInPage,
  installation: Installation,
  session: Session,
): Promise<SignedInPage> {
  await opened.context.addCookies(session.cookies.map((cookie) => ({ ...cookie, url: installation.base })));
  return opened;
}

/** A browser context of its own with the session's cookies, and a page in it. */
export async function sessionPage(
  browser: Browser,
  installation: Installation,
  session: Session,
  options: BrowserContextOptions = {},
): Promise<SignedInPage> {
  return withSession(await openPage(browser, options), installation, session);
}

/** A browser context of its own, signed in afresh as `account` through the API, and a page in it. */
export async function signedInPage(
  browser: Browser,
  installation: Installation,
  account: Account,
  options: BrowserContextOptions = {},
): Promise<SignedInPage> {
  return sessionPage(browser, installation, await signIn(installation, account), options);
}
