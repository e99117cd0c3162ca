import { sql } from "kysely";
import type { Db } from "../../db/database.ts";
import { ApiError } from "../../errors/api-error.ts";

/** What the role could do beyond reading `bi`, each a comma-separated list (null: nothing). */
interface Exposure {
  create_database: boolean;
  create_schemas: string | null;
  writable: string | null;
  readable: string | null;
  definers: string | null;
  memberships: string | null;
}

/**
 * Refuses a BI role that could do more than read the views of `bi`: what it holds through PUBLIC
 * (grants a database may carry from older PostgreSQL versions or from its administrators) is
 * checked, not assumed. It may not create anything but temporary tables (which BI tools use and
 * which vanish with the session), write or read any table outside `bi`, run a SECURITY DEFINER
 * function of the database's own, or act as any other role.
 */
export async function checkConfinement(db: Db, role: string): Promise<void> {
  const { rows } = await sql<Exposure>`
    WITH rel AS (
      SELECT c.oid, c.relkind, n.nspname || '.' || c.relname AS name, n.nspname
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
    )
    SELECT
      has_database_privilege(${role}, current_database(), 'CREATE') AS create_database,
      (SELECT string_agg(n.nspname::text, ', ') FROM pg_namespace n
        WHERE n.nspname NOT LIKE 'pg\\_%' AND has_schema_privilege(${role}, n.oid, 'CREATE')) AS create_schemas,
      (SELECT string_agg(name, ', ') FROM rel WHERE
        (relkind IN ('r', 'p', 'v', 'm', 'f')
          AND has_table_privilege(${role}, oid, 'INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER'))
        OR (relkind = 'S' AND has_sequence_privilege(${role}, oid, 'USAGE, UPDATE'))) AS writable,
      (SELECT string_agg(name, ', ') FROM rel WHERE relkind IN ('r', 'p', 'v', 'm', 'f', 'S') AND nspname <> 'bi'
        AND has_table_privilege(${role}, oid, 'SELECT')) AS readable,
      (SELECT string_agg(n.nspname || '.' || p.proname, ', ') FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE p.prosecdef AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND has_function_privilege(${role}, p.oid, 'EXECUTE')) AS definers,
      (SELECT string_agg(r.rolname::text, ', ') FROM pg_roles r
        WHERE r.rolname <> ${role} AND pg_has_role(${role}, r.oid, 'MEMBER')) AS memberships
  `.execute(db);
  const found = rows[0];
  if (found === undefined) return;
  const problems = [
    found.create_database ? "it could create schemas in this database" : null,
    found.create_schemas === null ? null : `it could create objects in schema ${found.create_schemas}`,
    found.writable === null ? null : `it could write ${found.writable}`,
    found.readable === null ? null : `it could read ${found.readable}`,
    found.definers === null ? null : `it could run the SECURITY DEFINER functions ${found.definers}`,
    found.memberships === null ? null : `it would be a member of ${found.memberships}`,
  ].filter((p): p is string => p !== null);
  if (problems.length > 0) {
    throw new ApiError(
      "VALIDATION_ERROR",
      `No BI role was created: through PUBLIC ${problems.join("; ")}. Revoke those privileges from PUBLIC (for example REVOKE CREATE ON SCHEMA public FROM PUBLIC), then try again (docs/bi.md).`,
    );
  }
}
