import { createHmac, randomBytes } from "node:crypto";
import type { AuthDatabase } from "../../db/auth-database.ts";
import type { Logger } from "../../lib/logger.ts";
import type { ServerOrigins } from "../../lib/origins.ts";
import type { CounterStore } from "../rate-limits/store.ts";
import { LoginLimits } from "./login-limits.ts";
import type { Mailer } from "./mailer.ts";
import { hashPassword, verifyPassword } from "./password.ts";

/** A user as the rest of Sightline sees one. */
export interface AccountUser {
  id: string;
  name: string;
  email: string;
}

/**
 * Who someone is: accounts, passwords, sessions and one-time tokens, kept by better-auth (ADR 0018)
 * on our database, behind the few operations Sightline needs. Which workspaces a user belongs to,
 * with which role, is ours (members.ts).
 */
export interface Identity {
  /** Answers a request under `/app/api/auth/` (sign-in, sign-out, password change and reset, sessions). */
  handle(request: Request): Promise<Response>;
  /** The signed-in user of a request, from its cookies; null without a valid session. */
  currentUser(headers: Headers): Promise<AccountUser | null>;
  /** Creates an account with a password and signs it in: `setCookie` carries the session. */
  signUp(
    input: { name: string; email: string; password: string },
    headers: Headers,
  ): Promise<{
    user: AccountUser;
    setCookie: string[];
  }>;
  /** Creates an account without a password (the operator's CLI); it gets one through a reset link. */
  createUser(input: { name: string; email: string }): Promise<AccountUser>;
  /** A one-time link to set a new password, valid an hour; null when no account has the e-mail. */
  resetLink(email: string): Promise<string | null>;
}

export interface IdentityOptions {
  database: AuthDatabase;
  /** Where users reach the dashboard: links in e-mails, secure cookies when https. */
  publicUrl: string;
  /** Which page origins may sign in, change a password or sign out (with the request's `Host`). */
  origins: ServerOrigins;
  /** The server's secret key: the session cookies' signing secret is derived from it. */
  secretKey: Buffer;
  mailer: Mailer | null;
  logger: Logger;
  /** Where sign-in attempts are counted (shared through Redis when configured). */
  counters: CounterStore;
}

/** The client's address as the HTTP layer saw it (webHeaders), null for a call from inside. */
function clientAddress(request: Request | undefined): string | null {
  return request?.headers.get("x-sightline-client-ip") ?? null;
}

const PREFIXES: Record<string, string> = { user: "usr", session: "ses", account: "acc", verification: "vrf" };

export function createIdentity(options: IdentityOptions): Identity {
  const limits = new LoginLimits(options.counters);
  const resetLinks = new Map<string, (url: string) => void>();
  // better-auth is loaded with the first dashboard request or account command, not when any
  // process starts (about 500 ms of every start-up, issue 16): the API and the workers never use it.
  const load = async () => {
    const [{ betterAuth }, { APIError, createAuthMiddleware }] = await Promise.all([
      import("better-auth"),
      import("better-auth/api"),
    ]);
    return betterAuth({
      appName: "Sightline",
      baseURL: options.publicUrl,
      basePath: "/app/api/auth",
      secret: createHmac("sha256", options.secretKey).update("sightline sessions").digest("base64url"),
      // The public URL's origin, and the origin the page sent when the configuration trusts it (a
      // server reached as http://127.0.0.1:8080 while its public URL says localhost). Nothing is
      // trusted because a header says so: `Host` and `Origin` are only compared (lib/origins.ts).
      trustedOrigins: (request) => {
        const origin = request?.headers.get("origin") ?? undefined;
        const host = request?.headers.get("host") ?? undefined;
        return [
          options.origins.publicOrigin,
          ...(origin !== undefined && options.origins.trustsOrigin(origin, host) ? [origin] : []),
        ];
      },
      database: { db: options.database.db, type: options.database.type },
      telemetry: { enabled: false },
      emailAndPassword: {
        enabled: true,
        minPasswordLength: 10,
        maxPasswordLength: 128,
        password: { hash: hashPassword, verify: verifyPassword },
        revokeSessionsOnPasswordReset: true,
        resetPasswordTokenExpiresIn: 3600,
        sendResetPassword: async ({ user, url }) => {
          const waiting = resetLinks.get(LoginLimits.key(user.email));
          if (waiting !== undefined) return waiting(url);
          if (options.mailer === null) {
            options.logger.warn(
              { user: user.id },
              "password reset asked for, but no SMTP_URL is set: give the user a link with `sightline user reset-link`",
            );
            return;
          }
          await options.mailer.send({
            to: user.email,
            subject: "Reset your Sightline password",
            text: `Someone (we hope you) asked to reset the password of your Sightline account.\n\nSet a new one within the hour: ${url}\n\nIf it was not you, ignore this e-mail: your password stays as it is.`,
          });
        },
        onPasswordReset: async ({ user }) => limits.clear(user.email),
      },
      user: {
        modelName: "users",
        fields: { emailVerified: "email_verified", createdAt: "created_at", updatedAt: "updated_at" },
      },
      session: {
        modelName: "sessions",
        expiresIn: 14 * 86_400,
        updateAge: 86_400,
        fields: {
          userId: "user_id",
          expiresAt: "expires_at",
          ipAddress: "ip_address",
          userAgent: "user_agent",
          createdAt: "created_at",
          updatedAt: "updated_at",
        },
      },
      account: {
        modelName: "accounts",
        fields: {
          userId: "user_id",
          accountId: "account_id",
          providerId: "provider_id",
          accessToken: "access_token",
          refreshToken: "refresh_token",
          idToken: "id_token",
          accessTokenExpiresAt: "access_token_expires_at",
          refreshTokenExpiresAt: "refresh_token_expires_at",
          createdAt: "created_at",
          updatedAt: "updated_at",
        },
      },
      verification: {
        modelName: "verifications",
        storeIdentifier: "hashed",
        fields: { expiresAt: "expires_at", createdAt: "created_at", updatedAt: "updated_at" },
      },
      // Per address, in this process (the library's). Sign-in attempts are limited per account and
      // per address by LoginLimits below, in the shared store, counting failures only: the
      // library's count of every sign-in would lock out an office signing in behind one address.
      rateLimit: {
        enabled: true,
        storage: "memory",
        window: 60,
        max: 100,
        customRules: {
          // The library's default here is 3 in 10 seconds, every sign-in counted: too few for an office.
          "/sign-in/email": { window: 60, max: 100 },
          "/request-password-reset": { window: 600, max: 5 },
          "/reset-password": { window: 600, max: 10 },
          "/change-password": { window: 600, max: 10 },
        },
      },
      advanced: {
        cookiePrefix: "sightline",
        // Checked even when NODE_ENV is "test".
        disableOriginCheck: false,
        ipAddress: { ipAddressHeaders: ["x-sightline-client-ip"] },
        database: {
          generateId: ({ model }) => `${PREFIXES[model] ?? model.slice(0, 3)}_${randomBytes(16).toString("base64url")}`,
        },
      },
      hooks: {
        before: createAuthMiddleware(async (ctx) => {
          // Sign-up goes through /app/api/signup, which applies first-run and invitation rules.
          if (ctx.path === "/sign-up/email" && ctx.request !== undefined) {
            throw new APIError("FORBIDDEN", { message: "Create accounts at /app/api/signup." });
          }
          // A new password ends every other session, whatever the client asked: whoever knew
          // the old one is signed out everywhere (the session changing it gets a new one).
          if (ctx.path === "/change-password") {
            return { context: { body: { ...ctx.body, revokeOtherSessions: true } } };
          }
          if (ctx.path === "/sign-in/email") {
            const wait = await limits.take(ctx.body?.email, clientAddress(ctx.request));
            if (wait > 0) {
              throw new APIError("TOO_MANY_REQUESTS", {
                message: `Too many sign-in attempts for this account or from this address; try again in ${wait} s.`,
              });
            }
          }
          return undefined;
        }),
        after: createAuthMiddleware(async (ctx) => {
          if (ctx.path !== "/sign-in/email") return;
          // Counted before the password was checked; a sign-in that succeeded gives its attempt back.
          if (!(ctx.context.returned instanceof APIError)) {
            await limits.succeeded(ctx.body?.email, clientAddress(ctx.request));
          }
        }),
      },
    });
  };
  let loading: ReturnType<typeof load> | null = null;
  const authOf = () => {
    loading ??= load();
    return loading;
  };

  const toUser = (user: { id: string; name: string; email: string }): AccountUser => ({
    id: user.id,
    name: user.name,
    email: user.email,
  });

  return {
    handle: async (request) => (await authOf()).handler(request),
    async currentUser(headers) {
      const found = await (await authOf()).api.getSession({ headers });
      return found === null ? null : toUser(found.user);
    },
    async signUp(input, headers) {
      const { headers: answer, response } = await (await authOf()).api.signUpEmail({
        body: { name: input.name, email: input.email, password: input.password },
        headers,
        returnHeaders: true,
      });
      return { user: toUser(response.user), setCookie: answer.getSetCookie() };
    },
    async createUser(input) {
      const context = await (await authOf()).$context;
      const user = await context.internalAdapter.createUser(
        { name: input.name, email: input.email.toLowerCase(), emailVerified: false },
        { method: "admin" },
      );
      // A password nobody knows, until the user sets theirs through a reset link.
      await context.internalAdapter.createAccount({
        userId: user.id,
        providerId: "credential",
        accountId: user.id,
        password: await hashPassword(randomBytes(32).toString("base64url")),
      });
      return toUser(user);
    },
    async resetLink(email) {
      const key = LoginLimits.key(email);
      const link = new Promise<string>((resolve) => resetLinks.set(key, resolve));
      try {
        await (await authOf()).api.requestPasswordReset({ body: { email: key, redirectTo: "/reset-password" } });
        // The library answers the same whether or not the account exists; no account, no link.
        return await Promise.race([link, new Promise<null>((resolve) => setTimeout(() => resolve(null), 50))]);
      } finally {
        resetLinks.delete(key);
      }
    },
  };
}
