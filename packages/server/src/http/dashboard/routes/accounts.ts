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
import { type DashboardRoute, publicRoute, userRoute } from "../route.ts";
import { webHeaders } from "../session.ts";

export function accountRoutes(deps: Deps): DashboardRoute[] {
  return [
    publicRoute({
      method: "GET",
      path: "/setup",
      success: { status: 200, schema: SetupSchema },
      handler: async () => ({
        needs_setup: await needsSetup(deps),
        open_signup: deps.signup.open,
        email_delivery: deps.mailer !== null,
      }),
    }),
    publicRoute({
      method: "POST",
      path: "/signup",
      body: SignUpSchema,
      success: { status: 201, schema: SignedUpSchema },
      handler: async ({ body, request, reply }) => {
        const signed = await signUp(deps, body, webHeaders(request));
        reply.header("set-cookie", signed.setCookie);
        return { user: signed.user, workspace_id: signed.workspace_id };
      },
    }),
    userRoute({
      method: "GET",
      path: "/me",
      success: { status: 200, schema: MeSchema },
      handler: async ({ user }) => ({ user, workspaces: await workspacesOf(deps, user.id) }),
    }),
    userRoute({
      method: "POST",
      path: "/workspaces",
      body: WorkspaceNameSchema,
      success: { status: 201, schema: UserWorkspaceSchema },
      handler: async ({ user, body }) => {
        const workspace = await createWorkspaceFor(deps, user.id, body.name);
        return { id: workspace.id, name: workspace.name, plan: workspace.plan, role: "owner" as const };
      },
    }),
  ];
}
