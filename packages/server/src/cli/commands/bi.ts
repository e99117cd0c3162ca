import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { DatabaseConfig } from "../../config/database-url.ts";
import { endpointOf } from "../../services/bi/endpoint.ts";
import { exportAgencyBi, exportBi } from "../../services/bi/export.ts";
import { type BiScope, grantBi, listBi, revokeBi } from "../../services/bi/grants.ts";
import type { Deps } from "../../services/context.ts";
import { type Io, outputMode, required, table, UsageError } from "../io.ts";

export const BI_USAGE = `Usage:
  sightline bi grant (--workspace ID | --agency ID) [--host HOST] [--json|--quiet]
  sightline bi list (--workspace ID | --agency ID) [--json|--quiet]
  sightline bi revoke --role NAME [--json|--quiet]
  sightline bi export (--workspace ID | --agency ID) --dir PATH [--json|--quiet]
grant, list and revoke need PostgreSQL: a read-only database role for BI tools (docs/bi.md).
--agency: one role for all the agency's client workspaces (pitches excluded), those of each query.
--host: the host name BI tools reach the database at, when it is not DATABASE_URL's.
export writes the same views as CSV files into PATH, on either database; --agency, one sub-folder
per client workspace, named by its id.`;

const options = {
  workspace: { type: "string" },
  agency: { type: "string" },
  host: { type: "string" },
  role: { type: "string" },
  dir: { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean" },
} as const;

/** --workspace ID or --agency ID: exactly one. */
function scopeOf(values: { workspace?: string; agency?: string }): BiScope {
  if (values.workspace !== undefined && values.agency !== undefined) {
    throw new UsageError("--workspace and --agency exclude each other: give one workspace or one agency");
  }
  if (values.agency !== undefined) return { agencyId: required(values, "agency") };
  if (values.workspace !== undefined) return { workspaceId: required(values, "workspace") };
  throw new UsageError("--workspace ID or --agency ID is required");
}

/** What a role reads, in words. */
function scopeText(scope: { workspace_id: string | null; agency_id: string | null }): string {
  return scope.agency_id === null
    ? `workspace ${scope.workspace_id}`
    : `agency ${scope.agency_id} (its client workspaces, pitches excluded)`;
}

export async function biCommand(
  deps: Deps,
  database: DatabaseConfig,
  directUrl: string | null,
  args: string[],
  io: Io,
): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
  const mode = outputMode(values);
  switch (sub) {
    case "grant": {
      const scope = scopeOf(values);
      // On SQLite there is no endpoint; the service refuses with what to do instead. BI logins
      // reach the server itself (DATABASE_DIRECT_URL): a pooler in front of it does not know them.
      const endpoint =
        database.dialect === "postgres"
          ? endpointOf(directUrl ?? database.url, values.host)
          : { host: "", port: 0, sslmode: "" };
      const created = await grantBi(deps, { ...scope, endpoint });
      if (mode === "json") io.out(JSON.stringify(created, null, 2));
      else if (mode === "quiet") io.out(created.url);
      else {
        io.out(`Created the read-only BI role ${created.role} for ${scopeText(created)}.`);
        io.out("");
        for (const line of table([
          ["  Host", created.host],
          ["  Port", String(created.port)],
          ["  Database", created.database],
          ["  User", created.role],
          ["  Password", created.password],
          ["  SSL mode", created.sslmode],
        ]))
          io.out(line);
        io.out("");
        io.out(`  ${created.url}`);
        io.out("");
        io.out("Copy the password now: it is shown this once and Sightline keeps no copy.");
        io.out("The role reads the views of schema bi (bi.answers, bi.daily_metrics, …); see docs/bi.md.");
      }
      return 0;
    }
    case "list": {
      const scope = scopeOf(values);
      const roles = await listBi(deps, scope);
      if (mode === "json") io.out(JSON.stringify(roles, null, 2));
      else if (mode === "quiet") for (const r of roles) io.out(r.role);
      else if (roles.length === 0)
        io.out(`No BI roles for this ${scope.agencyId === undefined ? "workspace" : "agency"}.`);
      else {
        const rows = roles.map((r) => [r.role, r.created_at.slice(0, 19).replace("T", " ")]);
        for (const line of table([["ROLE", "CREATED"], ...rows])) io.out(line);
      }
      return 0;
    }
    case "revoke": {
      const revoked = await revokeBi(deps, { role: required(values, "role") });
      if (mode === "json") io.out(JSON.stringify(revoked, null, 2));
      else if (mode === "quiet") io.out(revoked.role);
      else io.out(`Dropped the BI role ${revoked.role}; it can no longer connect or read anything.`);
      return 0;
    }
    case "export": {
      const scope = scopeOf(values);
      const dir = resolve(io.cwd, required(values, "dir"));
      if (scope.agencyId !== undefined) {
        const result = await exportAgencyBi(deps, { agencyId: scope.agencyId, dir });
        const files = result.clients.flatMap((c) => c.files.map((f) => ({ ...f, workspace_id: c.workspace_id })));
        if (mode === "json") io.out(JSON.stringify(result, null, 2));
        else if (mode === "quiet") for (const f of files) io.out(f.path);
        else {
          io.out(
            `Exported ${result.clients.length} client workspaces of agency ${result.agency_id} into ${result.dir}:`,
          );
          for (const line of table(files.map((f) => [`  ${f.workspace_id}/${f.view}.csv`, `${f.rows} rows`]))) {
            io.out(line);
          }
        }
        return 0;
      }
      const result = await exportBi(deps, { workspaceId: scope.workspaceId, dir });
      if (mode === "json") io.out(JSON.stringify(result, null, 2));
      else if (mode === "quiet") for (const f of result.files) io.out(f.path);
      else {
        io.out(`Exported workspace ${result.workspace_id} into ${result.dir}:`);
        for (const line of table(result.files.map((f) => [`  ${f.view}.csv`, `${f.rows} rows`]))) io.out(line);
      }
      return 0;
    }
    default:
      throw new UsageError(sub === undefined ? "bi needs a subcommand" : `unknown subcommand "bi ${sub}"`);
  }
}
