/** Shapes of the dashboard-only routes (docs/dashboard-api.md). The `/v1` shapes come from `@sightline/sdk`. */

export type Role = "viewer" | "member" | "admin" | "owner";

export const ROLES: readonly Role[] = ["viewer", "member", "admin", "owner"];

export interface Setup {
  needs_setup: boolean;
  open_signup: boolean;
  email_delivery: boolean;
}

export interface User {
  id: string;
  name: string;
  email: string;
  /** Not every server version sends it; the account page shows it when present. */
  created_at?: string;
}

export interface WorkspaceSummary {
  id: string;
  name: string;
  plan: string;
  role: Role;
}

export interface Me {
  user: User;
  workspaces: WorkspaceSummary[];
}

export interface SignupResult {
  user: User;
  workspace_id: string;
}

export interface Workspace {
  id: string;
  name: string;
  plan: string;
  role: Role;
  api_access: boolean;
  /** null: no per-minute limit on this plan. */
  requests_per_minute: number | null;
  credits_per_month: number;
  engines: string[];
  created_at: string;
}

export interface Member {
  user_id: string;
  name: string;
  email: string;
  role: Role;
  joined_at: string;
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  /** Who invited: a member's name or user id, or null if that account is gone. */
  invited_by: string | null;
  expires_at: string;
  created_at: string;
}

export interface CreatedInvitation {
  id: string;
  email: string;
  role: Role;
  expires_at: string;
  link: string;
  emailed: boolean;
}

export interface InvitationPreview {
  workspace_name: string;
  email: string;
  role: Role;
  invited_by: string | null;
  expires_at: string;
  account_exists: boolean;
}

export interface AcceptedInvitation {
  workspace_id: string;
  role: Role;
}

export type Scope = "read" | "analyze" | "projects" | "results" | "reports" | "monitoring" | "webhooks" | "usage";

export interface ApiKey {
  id: string;
  name: string;
  /** The key's first characters, to recognise it. */
  start: string;
  scopes: Scope[];
  status: "active" | "revoked" | "expired";
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface Session {
  id: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  ipAddress?: string | null;
  userAgent?: string | null;
}

export interface DataList<T> {
  data: T[];
}
