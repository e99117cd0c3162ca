import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import { randomBase62 } from "../../lib/ids.ts";

/**
 * Encrypts secrets at rest with AES-256-GCM. The first key encrypts; every key decrypts, so that
 * SIGHTLINE_SECRET_KEY can be rotated by putting the new key first. Ciphertexts name their key:
 * `v1.<key id>.<iv>.<tag>.<data>` (base64url).
 */
export class SecretBox {
  readonly #keys: { id: string; key: Buffer }[];

  constructor(keys: Buffer[]) {
    if (keys.length === 0) throw new Error("SecretBox needs at least one key");
    for (const key of keys) if (key.length !== 32) throw new Error("secret keys must be 32 bytes");
    this.#keys = keys.map((key) => ({ id: createHash("sha256").update(key).digest("hex").slice(0, 8), key }));
  }

  encrypt(plaintext: string): string {
    const [primary] = this.#keys;
    if (primary === undefined) throw new Error("no key");
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", primary.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [
      "v1",
      primary.id,
      iv.toString("base64url"),
      cipher.getAuthTag().toString("base64url"),
      data.toString("base64url"),
    ].join(".");
  }

  decrypt(ciphertext: string): string {
    const [version, keyId, iv, tag, data] = ciphertext.split(".");
    if (version !== "v1" || iv === undefined || tag === undefined || data === undefined) {
      throw new Error("unknown ciphertext format");
    }
    const entry = this.#keys.find((k) => k.id === keyId);
    if (entry === undefined) throw new Error(`secret was encrypted with key ${keyId}, which is not configured`);
    const decipher = createDecipheriv("aes-256-gcm", entry.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  }

  /**
   * An HMAC-SHA256 of `message` under the first key, derived for `purpose` (HKDF), so that a
   * signature made for one purpose is worth nothing for another: links that must not be forged.
   */
  sign(purpose: string, message: string): string {
    const [primary] = this.#keys;
    if (primary === undefined) throw new Error("no key");
    return hmac(primary.key, purpose, message);
  }

  /** Whether `signature` is `sign(purpose, message)` under any configured key: rotation keeps links working. */
  verify(purpose: string, message: string, signature: string): boolean {
    const given = Buffer.from(signature, "utf8");
    return this.#keys.some(({ key }) => {
      const expected = Buffer.from(hmac(key, purpose, message), "utf8");
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }
}

function hmac(key: Buffer, purpose: string, message: string): string {
  const derived = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `sightline:${purpose}`, 32));
  return createHmac("sha256", derived).update(message).digest("base64url");
}

/** `whsec_` + 40 base62 characters (≈238 random bits; at least 192 are required). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBase62(40)}`;
}
