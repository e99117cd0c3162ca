/** Small parsers for environment values; each throws a message that reads after "NAME ". */
export class ConfigValueError extends Error {}

export function parseInteger(raw: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigValueError(`must be an integer, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) {
    throw new ConfigValueError(`must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

export function parseChoice<T extends string>(raw: string, choices: readonly T[]): T {
  const value = raw.trim().toLowerCase();
  const found = choices.find((choice) => choice === value);
  if (found === undefined) {
    throw new ConfigValueError(`must be one of ${choices.join(", ")}, got "${raw}"`);
  }
  return found;
}

export function parseBoolean(raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(value)) return true;
  if (["0", "false", "no", "off", ""].includes(value)) return false;
  throw new ConfigValueError(`must be 1/0, true/false, yes/no or on/off, got "${raw}"`);
}

/** `name[:port]` entries separated by commas or spaces, lower-cased; a URL or a path is refused. */
export function parseHostList(raw: string): string[] {
  const entries = raw
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
  for (const entry of entries) {
    let url: URL | null = null;
    try {
      url = /[@/?#\\]/.test(entry) ? null : new URL(`http://${entry}`);
    } catch {
      url = null;
    }
    if (url === null || url.hostname === "") {
      throw new ConfigValueError(`must list host names such as "sightline.example" or "10.0.0.5:8080", got "${entry}"`);
    }
  }
  return entries;
}

export function parseHttpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigValueError(`must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigValueError(`must be an http(s) URL, got "${raw}"`);
  }
  return url.toString().replace(/\/+$/, "");
}

export function parseRedisUrl(raw: string): string {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigValueError(`must be a redis:// or rediss:// URL, got "${raw}"`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new ConfigValueError(`must be a redis:// or rediss:// URL, got "${raw}"`);
  }
  return value;
}

/** Comma-separated base64 (or base64url) keys of exactly 32 bytes each. */
export function parseSecretKeys(raw: string): Buffer[] {
  const keys = raw
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => Buffer.from(part, part.includes("-") || part.includes("_") ? "base64url" : "base64"));
  if (keys.length === 0 || keys.some((key) => key.length !== 32)) {
    throw new ConfigValueError(
      "must be base64 of 32 random bytes (openssl rand -base64 32), comma-separated to rotate",
    );
  }
  return keys;
}

/** `smtp://` or `smtps://` with a host: what nodemailer takes as a transport URL. */
export function parseSmtpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigValueError("must be a URL such as smtps://user:password@smtp.example.com:465");
  }
  if ((url.protocol !== "smtp:" && url.protocol !== "smtps:") || url.hostname === "") {
    throw new ConfigValueError("must be an smtp:// or smtps:// URL with a host");
  }
  return url.toString();
}
