import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from "kysely";
import type { Database } from "./database.ts";
import type { Tables } from "./tables.ts";

/**
 * Our PostgreSQL pool reads timestamps as ISO strings, so that rows are the same on both dialects.
 * The authentication library expects `Date` objects back on PostgreSQL and compares them with
 * `new Date()`: with strings every expiry check would pass (an expired session or reset token
 * accepted). On its handle only, `*_at` columns are read as dates again.
 */
class DatesForAuth implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs) {
    for (const row of args.result.rows) {
      for (const key of Object.keys(row)) {
        const value = row[key];
        if (key.endsWith("_at") && typeof value === "string") row[key] = new Date(value);
      }
    }
    return args.result;
  }
}

/** What the authentication library needs to use our database: a Kysely handle and its dialect. */
export interface AuthDatabase {
  db: Kysely<Tables>;
  type: "sqlite" | "postgres";
}

export function authDatabase(database: Database): AuthDatabase {
  return database.dialect === "postgres"
    ? { db: database.db.withPlugin(new DatesForAuth()), type: "postgres" }
    : { db: database.db, type: "sqlite" };
}
