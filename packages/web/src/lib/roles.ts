import { ROLE_LABELS, ROLES } from "../generated/labels.ts";
import type { Role } from "./types.ts";

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** Whether `role` is at least `minimum` (viewer < member < admin < owner). */
export function atLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

/** A role's name, and what it may do (generated from the server's labels). */
export const ROLE_NAMES: Record<Role, string> = Object.fromEntries(
  ROLES.map((role) => [role, ROLE_LABELS[role].label]),
) as Record<Role, string>;

export const ROLE_DESCRIPTIONS: Record<Role, string> = Object.fromEntries(
  ROLES.map((role) => [role, ROLE_LABELS[role].description]),
) as Record<Role, string>;

export { ROLES };
