import type { FastifyReply, FastifyRequest } from "fastify";
import type { Static, TSchema } from "typebox";
import type { AccountUser } from "../../services/accounts/identity.ts";
import type { Membership } from "../../services/accounts/members.ts";
import type { Permission } from "../../services/accounts/roles.ts";
import type { ServiceContext } from "../../services/context.ts";

type In<S> = S extends TSchema ? Static<S> : undefined;

/** Who may call a dashboard route: anyone, any signed-in user, or a member of the workspace it names. */
type Access = { kind: "public" } | { kind: "user" } | { kind: "workspace"; permission: Permission };

/** What the dashboard's request checks established, for the handler. */
export interface Caller {
  user: AccountUser | null;
  /** For workspace routes: the workspace as a service context, and the user's membership. */
  workspace: { ctx: ServiceContext; member: Membership } | null;
}

interface Parts<P, Q, B> {
  params: In<P>;
  query: In<Q>;
  body: In<B>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** The request's parts before their types are known (they have been validated by then). */
interface RawParts {
  params: unknown;
  query: unknown;
  body: unknown;
  request: FastifyRequest;
  reply: FastifyReply;
}

interface Spec<P, Q, B, R extends TSchema> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Under /app/api, in Fastify syntax; workspace routes start with `/workspaces/:workspace`. */
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  success: { status: 200 | 201; schema: R };
}

/** A dashboard route with its types erased, as the app registers it. */
export interface DashboardRoute {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  access: Access;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  success: { status: 200 | 201; schema: TSchema };
  run(parts: RawParts, caller: Caller): Promise<unknown>;
}

function erase<P, Q, B>(parts: RawParts): Parts<P, Q, B> {
  // The parts were validated against the route's own schemas before the handler runs.
  return parts as Parts<P, Q, B>;
}

export function publicRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
>(
  spec: Spec<P, Q, B, R> & { handler(input: Parts<P, Q, B> & { user: AccountUser | null }): Promise<Static<R>> },
): DashboardRoute {
  return {
    ...spec,
    access: { kind: "public" },
    run: (parts, caller) => spec.handler({ ...erase<P, Q, B>(parts), user: caller.user }),
  };
}

export function userRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
>(
  spec: Spec<P, Q, B, R> & { handler(input: Parts<P, Q, B> & { user: AccountUser }): Promise<Static<R>> },
): DashboardRoute {
  return {
    ...spec,
    access: { kind: "user" },
    run: (parts, caller) => {
      if (caller.user === null) throw new Error(`${spec.path}: ran without a signed-in user`);
      return spec.handler({ ...erase<P, Q, B>(parts), user: caller.user });
    },
  };
}

export function workspaceRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
>(
  spec: Spec<P, Q, B, R> & {
    permission: Permission;
    handler(input: Parts<P, Q, B> & { user: AccountUser; ctx: ServiceContext; member: Membership }): Promise<Static<R>>;
  },
): DashboardRoute {
  return {
    ...spec,
    access: { kind: "workspace", permission: spec.permission },
    run: (parts, caller) => {
      if (caller.user === null || caller.workspace === null) throw new Error(`${spec.path}: ran without a member`);
      return spec.handler({ ...erase<P, Q, B>(parts), user: caller.user, ...caller.workspace });
    },
  };
}
