import pg from "pg";
import type { Logger } from "../lib/logger.ts";

/**
 * Listens on a PostgreSQL channel (`DialectSql.notify` sends), calling `wake` on each notification
 * and once more after every (re)connection, for what was sent while not listening. Reconnects after
 * a lost connection, backing off to 30 s. Resolves to a function that stops listening.
 */
export async function listen(
  url: string,
  channel: string,
  wake: () => void,
  logger: Logger,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let closed = false;
  let failures = 0;
  const connect = async (): Promise<void> => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url });
    next.on("notification", wake);
    next.on("error", (error) => {
      logger.warn({ err: error }, "notifications lost; polling until reconnected");
      next.end().catch(() => {});
      if (client === next) client = null;
      retry();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      next.end().catch(() => {});
      throw error;
    }
    client = next;
    failures = 0;
    wake(); // anything enqueued while we were not listening
  };
  // A failed connect reports only to its caller (no "error" event): keep trying, backing off to 30 s.
  const retry = () => {
    const delay = Math.min(30_000, 1_000 * 2 ** failures);
    failures++;
    setTimeout(() => void connect().catch(retry), delay).unref();
  };
  await connect();
  return async () => {
    closed = true;
    await client?.end().catch(() => {});
  };
}
