/**
 * Whether an error means the database could not be reached or could not serve right now (down,
 * restarting, connections refused or lost, out of connections, locked), as opposed to a bug or a
 * refused statement. Such failures are transient: the API answers 503 with `Retry-After`, and the
 * drivers reconnect by themselves once the database is back. Both dialects' codes live here.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== "object" || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  if (NETWORK_CODES.has(code)) return true;
  // PostgreSQL SQLSTATEs: 08 connection exception, 53 insufficient resources (too many
  // connections, out of memory or disk), 57P01-57P05 shutdown, crash recovery, idle session ended.
  if (/^(08|53)[0-9A-Z]{3}$/.test(code) || /^57P0[1-5]$/.test(code)) return true;
  // SQLite: another process holds the write lock past busy_timeout; the file cannot be opened or written.
  if (/^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|PROTOCOL)/.test(code)) return true;
  const message = typeof e.message === "string" ? e.message : "";
  if (POOL_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

// node-postgres reports a lost or unobtainable connection in words, without a code.
const POOL_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /the database system is (starting up|shutting down|in recovery mode)/,
];

/** What a client should wait before retrying a request that failed this way, in seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
