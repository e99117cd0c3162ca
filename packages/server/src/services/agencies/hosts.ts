import { ApiError, validationError } from "../../errors/api-error.ts";
import { parseHost } from "../../lib/origins.ts";
import { agencyBranding } from "../branding/branding.ts";
import type { Branding } from "../branding/types.ts";
import type { Deps } from "../context.ts";

/**
 * Agencies' custom hosts: the name (with an optional port) an agency's dashboard and share links
 * are reached on. The server answers to every agency's host (lib/origins.ts, reloaded here), its
 * links and e-mails for the agency's clients start with it, and the session cookie set there is
 * the host's own (no `Domain`): it is never sent to another name.
 */

/** A host as stored and compared: lower case, the default port dropped; null when it is not one. */
function normalHost(value: string): string | null {
  const parsed = parseHost(value);
  return parsed === null ? null : parsed.host;
}

/** Loads every agency's custom host into the server's list of names it answers to. */
export async function reloadCustomHosts(deps: Pick<Deps, "db" | "origins">): Promise<void> {
  const rows = await deps.db
    .selectFrom("agencies")
    .select("custom_host")
    .where("custom_host", "is not", null)
    .execute();
  deps.origins.setCustomHosts(rows.flatMap((row) => (row.custom_host === null ? [] : [row.custom_host])));
}

/** The operator's (CLI): sets or clears (null) an agency's custom host. */
export async function setCustomHost(deps: Deps, agencyId: string, host: string | null): Promise<string | null> {
  const normal = host === null ? null : normalHost(host);
  if (host !== null && normal === null) {
    throw validationError([
      { field: "host", issue: "must be a host name, with an optional port, such as reports.agency.com" },
    ]);
  }
  if (normal !== null) {
    const taken = await deps.db
      .selectFrom("agencies")
      .select("id")
      .where("custom_host", "=", normal)
      .where("id", "!=", agencyId)
      .executeTakeFirst();
    if (taken !== undefined) throw new ApiError("CONFLICT", `The host ${normal} is another agency's.`);
  }
  const updated = await deps.db
    .updateTable("agencies")
    .set({ custom_host: normal, updated_at: deps.clock.now().toISOString() })
    .where("id", "=", agencyId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw new ApiError("NOT_FOUND", `No agency with id '${agencyId}' exists.`);
  await reloadCustomHosts(deps);
  return normal;
}

/** The agency a request reached through its custom host, or null for any other host. */
async function agencyOfHost(deps: Pick<Deps, "db">, host: string | undefined): Promise<string | null> {
  if (host === undefined) return null;
  const normal = normalHost(host);
  if (normal === null) return null;
  const row = await deps.db.selectFrom("agencies").select("id").where("custom_host", "=", normal).executeTakeFirst();
  return row?.id ?? null;
}

/** How the dashboard presents itself on this host: the agency's branding there, none elsewhere. */
export async function hostBranding(
  deps: Pick<Deps, "db">,
  host: string | undefined,
): Promise<{ agency: string | null; branding: Branding | null }> {
  const agency = await agencyOfHost(deps, host);
  return agency === null ? { agency: null, branding: null } : { agency, branding: await agencyBranding(deps, agency) };
}
