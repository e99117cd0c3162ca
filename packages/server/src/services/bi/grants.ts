import { randomBytes } from "node:crypto";
import { PostgresAdapter, sql } from "kysely";
import type { Db } from "../../db/database.ts";
import { withTransaction } from "../../db/transaction.ts";
import { ApiError, notFound } from "../../errors/api-error.ts";
import type { Deps } from "../context.ts";
import { checkConfinement } from "./confinement.ts";
import { type BiEndpoint, connectionUrl } from "./endpoint.ts";
import { scramVerifier } from "./scram.ts";
import { quoteIdent, quoteLiteral } from "./sql-names.ts";

/** The role that owns the views (migration 2026-11-27-02-bi-views); login roles are never its members. */
const VIEWS_OWNER = "sightline_bi_views";

/**
 * Hygiene, not security (the role may change them for its session): a BI tool's runaway query or
 * forgotten open transaction must not hold the app's database (ADR 0035).
 */
const ROLE_SETTINGS = {
  statement_timeout: "120s",
  idle_in_transaction_session_timeout: "300s",
  default_transaction_read_only: "on",
};
const CONNECTION_LIMIT = 10;

interface BiRoleView {
  object: "bi_role";
  /** The PostgreSQL login role: the user name a BI tool connects with. */
  role: string;
  /** The workspace it reads; null for an agency's role. */
  workspace_id: string | null;
  /** The agency whose client workspaces it reads; null for a workspace's role. */
  agency_id: string | null;
  created_at: string;
}

/** Whose rows a BI role reads: one workspace, or every client workspace of one agency (never a pitch). */
export type BiScope = { workspaceId: string; agencyId?: undefined } | { agencyId: string; workspaceId?: undefined };

/** What a BI tool needs to connect: returned by `grantBi` only; Sightline keeps no copy of the password. */
export interface CreatedBiRole extends BiRoleView {
  password: string;
  host: string;
  port: number;
  database: string;
  /** What to set in the tool: the server's `sslmode` as DATABASE_URL gives it, else `prefer`. */
  sslmode: string;
  /** The same as one postgres:// URL. */
  url: string;
}

function requirePostgres(db: Db): void {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    throw new ApiError(
      "VALIDATION_ERROR",
      "BI roles need PostgreSQL (DATABASE_URL=postgres://…). On SQLite, write the same views as CSV files with `sightline bi export --workspace ID --dir PATH` (or --agency ID; docs/bi.md).",
    );
  }
}

async function requireViews(db: Db): Promise<void> {
  const { rows } = await sql<{ ok: boolean }>`
    SELECT to_regclass('bi.answers') IS NOT NULL AND EXISTS (SELECT FROM pg_roles WHERE rolname = ${VIEWS_OWNER}) AS ok
  `.execute(db);
  if (rows[0]?.ok !== true) {
    throw new ApiError(
      "VALIDATION_ERROR",
      "The BI views are not installed in this database: when Sightline migrated it, its database role could not create roles (CREATEROLE). docs/bi.md says how to install them.",
    );
  }
}

interface GrantRow {
  role_name: string;
  workspace_id: string | null;
  agency_id: string | null;
  created_at: string;
}

function toView(row: GrantRow): BiRoleView {
  return {
    object: "bi_role",
    role: row.role_name,
    workspace_id: row.workspace_id,
    agency_id: row.agency_id,
    created_at: row.created_at,
  };
}

/** The column of bi_grants a scope names, and its id; both or neither given is a caller's mistake. */
function scopeColumn(scope: BiScope): { column: "workspace_id" | "agency_id"; id: string } {
  if ((scope.workspaceId === undefined) === (scope.agencyId === undefined)) {
    throw new ApiError(
      "VALIDATION_ERROR",
      "A BI role is for one workspace or one agency: give exactly one of the two.",
    );
  }
  return scope.agencyId === undefined
    ? { column: "workspace_id", id: scope.workspaceId }
    : { column: "agency_id", id: scope.agencyId };
}

/** The grant row's scope, once the workspace or agency it names is known to exist. */
async function grantee(db: Db, scope: BiScope): Promise<Pick<GrantRow, "workspace_id" | "agency_id">> {
  const { column, id } = scopeColumn(scope);
  if (column === "agency_id") {
    const agency = await db.selectFrom("agencies").select("id").where("id", "=", id).executeTakeFirst();
    if (agency === undefined) throw new ApiError("NOT_FOUND", `No agency with id '${id}' exists.`);
    return { workspace_id: null, agency_id: agency.id };
  }
  const workspace = await db.selectFrom("workspaces").select("id").where("id", "=", id).executeTakeFirst();
  if (workspace === undefined) throw notFound("workspace", id);
  return { workspace_id: workspace.id, agency_id: null };
}

/**
 * Creates a PostgreSQL login role that reads the views of schema `bi` for one workspace, or for
 * every client workspace of one agency, and nothing else (docs/bi.md). Row-level security on the
 * tables behind the views keeps it to those workspaces' rows, decided on each query (an agency's
 * client added later is seen, one removed is not); the role holds no grant on any table. The
 * password is returned once.
 */
export async function grantBi(deps: Deps, input: BiScope & { endpoint: BiEndpoint }): Promise<CreatedBiRole> {
  requirePostgres(deps.db);
  return withTransaction(deps.db, async (db) => {
    await requireViews(db);
    const scope = await grantee(db, input);

    const role = `sl_bi_${randomBytes(6).toString("hex")}`;
    const password = randomBytes(32).toString("base64url");
    const { rows } = await sql<{ database: string }>`SELECT current_database() AS database`.execute(db);
    const database = rows[0]?.database ?? "";
    const name = quoteIdent(role);
    const statements = [
      `CREATE ROLE ${name} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS CONNECTION LIMIT ${CONNECTION_LIMIT} PASSWORD ${quoteLiteral(scramVerifier(password))}`,
      ...Object.entries(ROLE_SETTINGS).map(([key, value]) => `ALTER ROLE ${name} SET ${key} = ${quoteLiteral(value)}`),
      `GRANT CONNECT ON DATABASE ${quoteIdent(database)} TO ${name}`,
      `GRANT USAGE ON SCHEMA bi TO ${name}`,
      `GRANT SELECT ON ALL TABLES IN SCHEMA bi TO ${name}`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
    // Checked, not assumed: a database whose PUBLIC may write or read elsewhere gets no role.
    await checkConfinement(db, role);

    const row = { role_name: role, ...scope, created_at: deps.clock.now().toISOString() };
    await db.insertInto("bi_grants").values(row).execute();
    const endpoint = { ...input.endpoint, database };
    return { ...toView(row), password, ...endpoint, url: connectionUrl(endpoint, role, password) };
  });
}

/**
 * The BI roles of a workspace, or of an agency (its own roles, not its clients' workspace roles),
 * newest first; never a password (Sightline has none).
 */
export async function listBi(deps: Deps, scope: BiScope): Promise<BiRoleView[]> {
  requirePostgres(deps.db);
  const { column, id } = scopeColumn(scope);
  const rows = await deps.db
    .selectFrom("bi_grants")
    .selectAll()
    .where(column, "=", id)
    .orderBy("created_at", "desc")
    .orderBy("role_name")
    .execute();
  return rows.map(toView);
}

/**
 * Drops a BI role: its grants, its row and the role itself, in one transaction. A session it has
 * open keeps its connection but reads nothing more (no grant on the views, no workspace or agency).
 */
export async function revokeBi(deps: Deps, input: { role: string; workspaceId?: string }): Promise<BiRoleView> {
  requirePostgres(deps.db);
  return withTransaction(deps.db, async (db) => {
    let query = db.selectFrom("bi_grants").selectAll().where("role_name", "=", input.role);
    if (input.workspaceId !== undefined) query = query.where("workspace_id", "=", input.workspaceId);
    const row = await query.executeTakeFirst();
    if (row === undefined) throw notFound("BI role", input.role);
    await db.deleteFrom("bi_grants").where("role_name", "=", row.role_name).execute();
    const { rows } = await sql<{ database: string; exists: boolean }>`
      SELECT current_database() AS database, EXISTS (SELECT FROM pg_roles WHERE rolname = ${row.role_name}) AS exists
    `.execute(db);
    const found = rows[0];
    if (found?.exists === true) {
      const name = quoteIdent(row.role_name);
      for (const statement of [
        `REVOKE ALL ON ALL TABLES IN SCHEMA bi FROM ${name}`,
        `REVOKE ALL ON SCHEMA bi FROM ${name}`,
        `REVOKE ALL ON DATABASE ${quoteIdent(found.database)} FROM ${name}`,
        `DROP ROLE ${name}`,
      ]) {
        await sql.raw(statement).execute(db);
      }
    }
    return toView(row);
  });
}
