import { type EngineConfig, engineSecrets } from "../services/engines/settings.ts";
import type { DatabaseConfig } from "./database-url.ts";

/** The parts of a configuration that can hold secrets. */
export interface SecretBearingConfig {
  database: DatabaseConfig;
  redisUrl?: string | null;
  secretKeys?: Buffer[] | null;
  engines?: EngineConfig;
  accounts?: { smtp?: { url: string } | null };
  metrics?: { token: string | null };
}

function urlPassword(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  try {
    const password = new URL(url).password;
    return password === "" ? null : decodeURIComponent(password);
  } catch {
    return null;
  }
}

/**
 * Every secret the operator configured: engine keys, the keys encrypting secrets at rest (as the
 * base64 they were given in), the database's and Redis's passwords. Text from outside is scrubbed
 * of all of them before it is stored, served or logged.
 */
export function configuredSecrets(config: SecretBearingConfig): string[] {
  return [
    ...(config.engines === undefined ? [] : engineSecrets(config.engines)),
    ...(config.secretKeys ?? []).map((key) => key.toString("base64")),
    config.database.dialect === "postgres" ? urlPassword(config.database.url) : null,
    urlPassword(config.redisUrl),
    urlPassword(config.accounts?.smtp?.url),
    config.metrics?.token ?? null,
  ].filter((secret): secret is string => secret !== null);
}
