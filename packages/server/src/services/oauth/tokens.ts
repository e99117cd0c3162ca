import { createHash, timingSafeEqual } from "node:crypto";
import { sha256Hex } from "../../lib/crypto.ts";
import { randomBase62 } from "../../lib/ids.ts";

/**
 * The secrets of OAuth sign-in (ADR 0038). Each kind has its own prefix, so a leaked one is
 * recognised by what it is (secret scanners, logs' redaction), and a token of one kind is never
 * mistaken for another. Only their SHA-256 hashes are stored.
 */
const PREFIXES = { access: "sl_oat_", refresh: "sl_ort_", code: "sl_oac_", secret: "sl_ocs_" } as const;

export type SecretKind = keyof typeof PREFIXES;

const LENGTH = 40; // 40 base62 characters ≈ 238 random bits

export function newSecret(kind: SecretKind): string {
  return `${PREFIXES[kind]}${randomBase62(LENGTH)}`;
}

export function isSecretOf(kind: SecretKind, value: string): boolean {
  return (
    value.length === PREFIXES[kind].length + LENGTH &&
    value.startsWith(PREFIXES[kind]) &&
    /^[0-9A-Za-z]+$/.test(value.slice(PREFIXES[kind].length))
  );
}

export function hashSecret(value: string): string {
  return sha256Hex(value);
}

/** An access token of ours, by its shape: the MCP server's door tells it from an API key this way. */
export function isAccessToken(value: string): boolean {
  return value.startsWith(PREFIXES.access);
}

/** Lifetimes: an access token an hour, a refresh token 30 days from its last use, a code ten minutes. */
export const ACCESS_TOKEN_SECONDS = 3_600;
export const REFRESH_TOKEN_DAYS = 30;
export const CODE_SECONDS = 600;

/** PKCE's S256 (RFC 7636 §4.6): BASE64URL(SHA256(verifier)) compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
