import { spawn } from "node:child_process";

export type PgTool = "pg_dump" | "pg_restore";

/** A libpq connection: the URL without its password, which goes in the environment instead of argv. */
export interface PgConnection {
  url: string;
  env: Record<string, string>;
}

export function pgConnection(databaseUrl: string): PgConnection {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { url: url.toString(), env: password === "" ? {} : { PGPASSWORD: password } };
}

/** What to do when a tool is not installed here: install it, or do by hand what the command would. */
const INSTEAD: Record<PgTool, string> = {
  pg_dump: 'pg_dump --format=custom --file=PATH "$DATABASE_URL" (keep the secret key too: docs/backups.md)',
  pg_restore: "the restore by hand, as docs/backups.md shows (BI's views need their migrations run again)",
};

/** Runs one of PostgreSQL's client tools and answers its standard output. */
export function runPgTool(tool: PgTool, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new Error(
              `${tool} is not on PATH. Install PostgreSQL's client tools (the server's major version or newer), or run ${INSTEAD[tool]}`,
            )
          : error,
      );
    });
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(stdout).toString("utf8"));
      else reject(new Error(`${tool} failed (exit code ${code}):\n${stderr.trim()}`));
    });
  });
}
