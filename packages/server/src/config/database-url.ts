import { isAbsolute, resolve } from "node:path";
import { ConfigValueError } from "./parse.ts";

export type DatabaseConfig = { dialect: "sqlite"; path: string } | { dialect: "postgres"; url: string };

/**
 * `sqlite:/abs/file.db`, `sqlite:./relative.db` (to the working directory), `sqlite::memory:`,
 * or `postgres://…` / `postgresql://…`.
 */
export function parseDatabaseUrl(raw: string, cwd: string): DatabaseConfig {
  const value = raw.trim();
  if (value.startsWith("postgres://") || value.startsWith("postgresql://")) {
    try {
      new URL(value);
    } catch {
      throw new ConfigValueError("is not a valid postgres:// URL");
    }
    return { dialect: "postgres", url: value };
  }
  if (value.startsWith("sqlite:")) {
    let path = value.slice("sqlite:".length);
    if (path.startsWith("//")) path = path.slice(2);
    if (path === "") throw new ConfigValueError('needs a file path after "sqlite:"');
    if (path === ":memory:") return { dialect: "sqlite", path };
    return { dialect: "sqlite", path: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  throw new ConfigValueError(`must start with sqlite: or postgres:// (got "${value.split(":")[0] ?? value}:…")`);
}
