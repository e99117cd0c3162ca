import type { Scope } from "../api-keys/scopes.ts";

/** A member's role in a workspace, least to most. */
export const ROLES = ["viewer", "member", "admin", "owner"] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

const MEMBER_SCOPES: Scope[] = ["read", "projects", "analyze", "monitoring", "results", "reports", "usage"];
const ALL_SCOPES: Scope[] = [...MEMBER_SCOPES, "webhooks"];

/**
 * A role as the public API's scopes, so that one scope check guards both doors: a viewer reads;
 * a member also changes brands, analyses, monitoring and reports; admins and owners everything.
 */
export function scopesOf(role: Role): Scope[] {
  return role === "viewer" ? ["read"] : role === "member" ? MEMBER_SCOPES : ALL_SCOPES;
}

/** What a role allows beyond the API's scopes: the workspace's own settings. */
export type Permission =
  | "read"
  | "manage_keys"
  | "manage_members"
  | "manage_owners"
  | "rename_workspace"
  | "delete_workspace"
  | "manage_engines"
  | "delete_project";

const ALLOWED: Record<Permission, Role> = {
  read: "viewer",
  manage_keys: "admin",
  manage_members: "admin",
  manage_owners: "owner",
  rename_workspace: "admin",
  delete_workspace: "owner",
  manage_engines: "admin",
  delete_project: "admin",
};

export function can(role: Role, permission: Permission): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(ALLOWED[permission]);
}

/** A role at an agency, least to most. */
export const AGENCY_ROLES = ["viewer", "strategist", "admin"] as const;

export type AgencyRole = (typeof AGENCY_ROLES)[number];

export function isAgencyRole(value: string): value is AgencyRole {
  return (AGENCY_ROLES as readonly string[]).includes(value);
}

/**
 * What a role at the agency is in each of its client workspaces, unless the client's own
 * membership says otherwise: an admin runs the client as its owner, a strategist works in it as a
 * member (brands, analyses, monitoring, reports), a viewer reads.
 */
export function clientRoleOf(role: AgencyRole): Role {
  return role === "admin" ? "owner" : role === "strategist" ? "member" : "viewer";
}

export function atLeast(role: AgencyRole, least: AgencyRole): boolean {
  return AGENCY_ROLES.indexOf(role) >= AGENCY_ROLES.indexOf(least);
}
