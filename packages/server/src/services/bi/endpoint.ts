/** Where a BI tool reaches the database: the host and port of DATABASE_URL unless told otherwise. */
export interface BiEndpoint {
  host: string;
  port: number;
  sslmode: string;
}

/**
 * The endpoint of a postgres:// URL. `host` replaces the URL's host: Sightline may reach its
 * database as `localhost` or a private name that a hosted BI tool cannot.
 */
export function endpointOf(databaseUrl: string, host?: string): BiEndpoint {
  const url = new URL(databaseUrl);
  const ssl = url.searchParams.get("sslmode") ?? (url.searchParams.get("ssl") === "true" ? "require" : "prefer");
  return {
    host: host ?? (url.hostname.replace(/^\[(.*)\]$/, "$1") || "localhost"),
    port: url.port === "" ? 5432 : Number(url.port),
    sslmode: ssl,
  };
}

/**
 * The connection as one URL, for tools (and psql) that take one. `sslmode=prefer` is libpq's default
 * and left out: some clients (node-postgres) read any sslmode as "require".
 */
export function connectionUrl(endpoint: BiEndpoint & { database: string }, user: string, password: string): string {
  const host = endpoint.host.includes(":") ? `[${endpoint.host}]` : endpoint.host;
  const ssl = endpoint.sslmode === "prefer" ? "" : `?sslmode=${encodeURIComponent(endpoint.sslmode)}`;
  return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@${host}:${endpoint.port}/${encodeURIComponent(endpoint.database)}${ssl}`;
}
