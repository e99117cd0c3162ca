import type { Kysely } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// OAuth sign-in for the MCP server (issue 31, ADR 0038).
// - oauth_clients: the applications that registered themselves (RFC 7591), public ones (PKCE
//   only) or with a secret, kept hashed. `redirect_uris` is a JSON array.
// - oauth_codes: authorization codes, hashed, good for ten minutes and once; `connection_id` is
//   set when a code is exchanged, so that a code presented twice revokes what it gave.
//   `redirect_uri` is the one the authorization request named (null when it named none), which
//   the exchange must name again.
// - oauth_connections: what a member granted an application in one workspace (its scopes), with
//   the hashes of its current access token (an hour) and refresh token (rotated on every use), and
//   of the refresh token it replaced last: presented again, someone else has it, and the
//   connection is revoked. Revoking it ends both tokens at once.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("oauth_clients")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("client_uri", "text")
    .addColumn("redirect_uris", "text", (c) => c.notNull())
    .addColumn("auth_method", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("oauth_connections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("client_id", "text", (c) => c.notNull().references("oauth_clients.id").onDelete("cascade"))
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("access_hash", "text", (c) => c.notNull().unique())
    .addColumn("access_expires_at", "text", (c) => c.notNull())
    .addColumn("refresh_hash", "text", (c) => c.notNull().unique())
    .addColumn("refresh_expires_at", "text", (c) => c.notNull())
    .addColumn("spent_refresh_hash", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema
    .createIndex("oauth_connections_workspace")
    .on("oauth_connections")
    .columns(["workspace_id", "created_at"])
    .execute();
  await db.schema.createIndex("oauth_connections_spent").on("oauth_connections").column("spent_refresh_hash").execute();
  await db.schema
    .createTable("oauth_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("client_id", "text", (c) => c.notNull().references("oauth_clients.id").onDelete("cascade"))
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("redirect_uri", "text")
    .addColumn("code_challenge", "text", (c) => c.notNull())
    .addColumn("resource", "text")
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("connection_id", "text")
    .execute();
}
