/**
 * Names for the answers of the dashboard-only routes, from the client generated from the server's
 * route schemas (`generated/dashboard.ts`): the web app declares no API shape of its own. The
 * `/v1` shapes come from `@sightline/sdk`, generated from the same routes.
 */
import type { ApiKey, DashboardOperations as Ops } from "../generated/dashboard.ts";

export type {
  AcceptedInvitation,
  ApiKey,
  AuthorizationPreview,
  ConnectedApp,
  CreatedApiKey,
  CreatedInvitation,
  EngineStatus,
  EngineTest,
  IngestToken,
  Invitation,
  InvitationPreview,
  Member,
  Role,
  User,
  UserWorkspace as WorkspaceSummary,
  Workspace,
} from "../generated/dashboard.ts";
export type SignupInput = Ops["signUp"]["body"];
export type SignupResult = Ops["signUp"]["response"];
export type Scope = ApiKey["scopes"][number];
/** An OAuth authorization request's parameters, as the application sent them (`/connect?…`). */
export type AuthorizationParams = Ops["previewAuthorization"]["query"];
export type AuthorizationDecision = Ops["decideAuthorization"]["body"];
