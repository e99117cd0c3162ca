import type { WorkspaceSummary } from "../../lib/types.ts";

export interface WorkspaceGroup {
  /** The agency the workspaces are clients of; null for the user's other workspaces. */
  agency: { id: string; name: string; staff: boolean } | null;
  workspaces: WorkspaceSummary[];
}

/** "Café Noir" and "cafe noir" alike: lower case, accents dropped. */
function folded(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
}

/**
 * The switcher's list: the workspaces whose name (or whose agency's name) contains the search, under
 * their agency, agencies by name, then the others. An agency the user is staff of is listed for its
 * "Agency home" link even with no client yet, unless the search leaves it out.
 */
export function groupWorkspaces(
  workspaces: readonly WorkspaceSummary[],
  staffOf: readonly { id: string; name: string }[],
  search: string,
): WorkspaceGroup[] {
  const wanted = folded(search.trim());
  const matches = (text: string) => wanted === "" || folded(text).includes(wanted);
  const staff = new Set(staffOf.map((agency) => agency.id));
  const agencies = new Map<string, { id: string; name: string }>();
  for (const agency of staffOf) agencies.set(agency.id, agency);
  for (const workspace of workspaces) {
    if (workspace.agency && !agencies.has(workspace.agency.id)) agencies.set(workspace.agency.id, workspace.agency);
  }
  const groups: WorkspaceGroup[] = [...agencies.values()]
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    .map((agency) => {
      const agencyMatches = matches(agency.name);
      return {
        agency: { ...agency, staff: staff.has(agency.id) },
        workspaces: workspaces.filter((w) => w.agency?.id === agency.id && (agencyMatches || matches(w.name))),
        shown: agencyMatches,
      };
    })
    .filter((group) => group.workspaces.length > 0 || (group.shown && group.agency.staff))
    .map(({ agency, workspaces: inGroup }) => ({ agency, workspaces: inGroup }));
  const others = workspaces.filter((w) => w.agency === null && matches(w.name));
  if (others.length > 0) groups.push({ agency: null, workspaces: others });
  return groups;
}
