import Type, { type TSchema } from "typebox";

/**
 * The authentication library's routes the web app calls (under `/app/api/auth`, ADR 0018),
 * described as the dashboard's other routes are so that the web app's client is generated for
 * them too. The library answers them (dashboard/register.ts hands it the request); these schemas
 * say what the web app sends and reads, not what the library validates.
 */
export interface AuthOperation {
  operationId: string;
  method: "GET" | "POST";
  path: string;
  body?: TSchema;
  response: TSchema;
}

const Ok = Type.Object({ status: Type.Optional(Type.Boolean()) });

const Session = Type.Object({
  id: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  expiresAt: Type.String(),
  ipAddress: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  userAgent: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

const Password = Type.String({ minLength: 10, maxLength: 128 });

export const AUTH_OPERATIONS: readonly AuthOperation[] = [
  {
    operationId: "signIn",
    method: "POST",
    path: "/auth/sign-in/email",
    body: Type.Object({ email: Type.String(), password: Type.String() }),
    response: Type.Object({ redirect: Type.Optional(Type.Boolean()) }),
  },
  { operationId: "signOut", method: "POST", path: "/auth/sign-out", response: Ok },
  {
    operationId: "requestPasswordReset",
    method: "POST",
    path: "/auth/request-password-reset",
    body: Type.Object({ email: Type.String(), redirectTo: Type.String() }),
    response: Ok,
  },
  {
    operationId: "resetPassword",
    method: "POST",
    path: "/auth/reset-password",
    body: Type.Object({ token: Type.String(), newPassword: Password }),
    response: Ok,
  },
  {
    operationId: "changePassword",
    method: "POST",
    path: "/auth/change-password",
    body: Type.Object({ currentPassword: Type.String(), newPassword: Password }),
    response: Type.Object({}),
  },
  { operationId: "listSessions", method: "GET", path: "/auth/list-sessions", response: Type.Array(Session) },
  { operationId: "revokeSessions", method: "POST", path: "/auth/revoke-sessions", response: Ok },
];
