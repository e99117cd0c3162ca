import type { Deps } from "../context.ts";

/**
 * Where links to a workspace's pages start: its agency's custom host (with the scheme of the
 * server's public URL) when it has one, else the public URL.
 */
export async function linkOrigin(deps: Pick<Deps, "db" | "publicUrl">, workspaceId: string): Promise<string> {
  const row = await deps.db
    .selectFrom("workspaces as w")
    .innerJoin("agencies as a", "a.id", "w.agency_id")
    .select("a.custom_host")
    .where("w.id", "=", workspaceId)
    .executeTakeFirst();
  if (row?.custom_host == null) return deps.publicUrl;
  return `${new URL(deps.publicUrl).protocol}//${row.custom_host}`;
}
