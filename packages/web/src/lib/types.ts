/**
 * Names for the answers of the dashboard-only routes, read off the client generated from the
 * server's route schemas (`generated/dashboard.ts`): the web app declares no API shape of its
 * own. The `/v1` shapes come from `@sightline/sdk`, generated from the same routes.
 */
import type { DashboardOperations as Ops } from "../generated/dashboard.ts";

export type Setup = Ops["getSetup"]["response"];
export type Me = Ops["getMe"]["response"];
export type User = Me["user"];
export type WorkspaceSummary = Me["workspaces"][number];
export type Role = WorkspaceSummary["role"];
export type SignupInput = Ops["signUp"]["body"];
export type SignupResult = Ops["signUp"]["response"];
export type Workspace = Ops["getWorkspace"]["response"];
export type Member = Ops["listMembers"]["response"]["data"][number];
export type Invitation = Ops["listInvitations"]["response"]["data"][number];
export type CreatedInvitation = Ops["createInvitation"]["response"];
export type InvitationPreview = Ops["previewInvitation"]["response"];
export type AcceptedInvitation = Ops["acceptInvitation"]["response"];
export type ApiKey = Ops["listApiKeys"]["response"]["data"][number];
export type Scope = ApiKey["scopes"][number];
export type CreatedApiKey = Ops["createApiKey"]["response"];
export type Session = Ops["listSessions"]["response"][number];
