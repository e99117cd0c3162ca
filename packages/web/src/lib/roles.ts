import type { Role } from "./types.ts";

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** Whether `role` is at least `minimum` (viewer < member < admin < owner). */
export function atLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

export const ROLE_NAMES: Record<Role, string> = {
  viewer: "Viewer",
  member: "Member",
  admin: "Admin",
  owner: "Owner",
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: "Sees everything except secrets.",
  member: "Also adds and edits brands, prompts, analyses, monitoring and reports.",
  admin: "Also manages API keys, webhooks and members.",
  owner: "Also manages owners, renames and deletes the workspace.",
};
