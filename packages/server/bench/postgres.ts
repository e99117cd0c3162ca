import pg from "pg";
import { randomBase62 } from "../src/lib/ids.ts";

/** A scratch database next to the one `adminUrl` names, or null when PostgreSQL is unreachable. */
export async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> } | null> {
  const name = `sl_bench_${randomBase62(10).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch {
    return null;
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
