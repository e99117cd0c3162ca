import type { AgencyRole } from "./agencies-api.ts";

/** Roles at an agency, least to most (the server's services/agencies/roles.ts). */
export const AGENCY_ROLES: readonly AgencyRole[] = ["viewer", "strategist", "admin"];

/** What each role is called, and what it gives in every client workspace. */
export const AGENCY_ROLE_LABELS: Record<AgencyRole, { name: string; description: string }> = {
  viewer: { name: "Viewer", description: "Reads every client's figures, answers and reports, and the pitches." },
  strategist: {
    name: "Strategist",
    description: "Works in every client as a member (brands, analyses, monitoring, reports) and makes pitches.",
  },
  admin: {
    name: "Admin",
    description: "Runs every client as its owner, and manages the clients, their caps, the staff and the branding.",
  },
};

/** Whether `role` is at least `least` (viewer < strategist < admin). */
export function agencyRoleAtLeast(role: AgencyRole, least: AgencyRole): boolean {
  return AGENCY_ROLES.indexOf(role) >= AGENCY_ROLES.indexOf(least);
}
