import { sha256Hex } from "../../lib/crypto.ts";
import { randomBase62 } from "../../lib/ids.ts";

const KEY_PREFIX = "sl_live_";
const SECRET_LENGTH = 32; // 32 base62 characters ≈ 190 random bits
const KEY_PATTERN = /^sl_live_[0-9A-Za-z]{32}$/;

/** Key lifetime: the spec's one year, taken as 365 days. */
export const KEY_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

export function generateKey(): string {
  return `${KEY_PREFIX}${randomBase62(SECRET_LENGTH)}`;
}

export function isWellFormedKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** What is stored: never the key, only its hash and enough of a prefix to recognise it. */
export function hashKey(key: string): string {
  return sha256Hex(key);
}

export function displayStart(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 4);
}
