import { createHmac, timingSafeEqual } from "node:crypto";

/** Crockford's base 32: no I, L, O or U, so that a code read off a console is typed back right. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * The installation's setup code: 80 bits derived from the server's secret key, so that every
 * process (and `sightline setup-code`) knows the same code without storing it, and only someone who
 * can read the server's console, its data folder or its SIGHTLINE_SECRET_KEY can know it. It is
 * asked for once, to create the first account (signup.ts), and means nothing afterwards.
 */
export function setupCode(secretKey: Buffer): string {
  const bytes = createHmac("sha256", secretKey).update("sightline first-run setup code").digest().subarray(0, 10);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return (out.match(/.{4}/g) ?? []).join("-");
}

/** A code as typed: case, spaces and dashes ignored, and the letters people confuse with digits read as them. */
function normalizeCode(value: string): string {
  return value.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
}

/** Whether `given` is the setup code `expected`, compared in constant time. */
export function isSetupCode(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(normalizeCode(expected));
  const b = Buffer.from(normalizeCode(given));
  return a.length === b.length && timingSafeEqual(a, b);
}
