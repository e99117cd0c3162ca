import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * scrypt, memory-hard: N = 2^15, r = 8 (32 MiB and about 50 ms per hash here). The stored form
 * names its parameters (`scrypt$N$r$p$salt$key`), so that they can be raised later without making
 * existing passwords unreadable.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 64;

function derive(password: string, salt: Buffer, params: typeof PARAMS): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_BYTES,
      { ...params, maxmem: 256 * params.N * params.r },
      (error, key) => (error === null ? resolve(key) : reject(error)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether `password` is the one `hash` was made from; compared in constant time. */
export async function verifyPassword(input: { hash: string; password: string }): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = input.hash.split("$");
  if (scheme !== "scrypt" || salt === undefined || key === undefined) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(params).every((v) => Number.isSafeInteger(v) && v > 0)) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(input.password, Buffer.from(salt, "base64url"), params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
