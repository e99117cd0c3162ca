import { workspacesOf } from "../../../services/accounts/members.ts";
import {
  MeSchema,
  SetupSchema,
  SignedUpSchema,
  SignUpSchema,
  UserWorkspaceSchema,
  WorkspaceNameSchema,
} from "../../../services/accounts/schemas.ts";
import { needsSetup, signUp } from "../../../services/accounts/signup.ts";
import { createWorkspaceFor } from "../../../services/accounts/workspaces.ts";
import type { Deps } from "../../../services/context.ts";
import { identityHeaders } from "../../doors/session.ts";
import { defineRoute, type SessionRoute, WithStatus } from "../../route.ts";

export function accountRoutes(deps: Deps): SessionRoute[] {
  return [
    defineRoute({
      operationId: "getSetup",
      method: "GET",
      access: { kind: "public" },
      path: "/setup",
      success: { status: 200, schema: SetupSchema },
      handler: async () => ({
        needs_setup: await needsSetup(deps),
        open_signup: deps.signup.open,
        email_delivery: deps.mailer !== null,
      }),
    }),
    defineRoute({
      operationId: "signUp",
      method: "POST",
      access: { kind: "public" },
      path: "/signup",
      body: SignUpSchema,
      success: { status: 201, schema: SignedUpSchema },
      handler: async ({ body, headers, address }) => {
        const signed = await signUp(deps, body, identityHeaders(headers, address));
        return new WithStatus(
          201,
          { user: signed.user, workspace_id: signed.workspace_id },
          { "set-cookie": signed.setCookie },
        );
      },
    }),
    defineRoute({
      operationId: "getMe",
      method: "GET",
      access: { kind: "user" },
      path: "/me",
      success: { status: 200, schema: MeSchema },
      handler: async ({ user }) => ({ user, workspaces: await workspacesOf(deps, user.id) }),
    }),
    defineRoute({
      operationId: "createWorkspace",
      method: "POST",
      access: { kind: "user" },
      path: "/workspaces",
      body: WorkspaceNameSchema,
      success: { status: 201, schema: UserWorkspaceSchema },
      handler: async ({ user, body }) => {
        const workspace = await createWorkspaceFor(deps, user.id, body.name);
        return { id: workspace.id, name: workspace.name, plan: workspace.plan, role: "owner" as const, agency: null };
      },
    }),
  ];
}
