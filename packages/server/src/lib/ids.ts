import { randomFillSync } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Random bytes are drawn from the CSPRNG in blocks; ids are made on every request.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++] ?? 0;
}

/**
 * Uniformly random base62 string. Bytes of 248 and above are rejected so that every
 * character carries log2(62) ≈ 5.95 bits with no modulo bias.
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

export type IdPrefix =
  | "ws"
  | "agy"
  | "pit"
  | "inv"
  | "key"
  | "prj"
  | "evt"
  | "req"
  | "cre"
  | "job"
  | "whk"
  | "whd"
  | "wha"
  | "ana"
  | "bat"
  | "res"
  | "mon"
  | "chg"
  | "run"
  | "alt"
  | "rpt"
  | "rsh"
  | "rem"
  | "ntf"
  | "tim"
  | "itk"
  | "per"
  | "cvs"
  | "cnv"
  | "cli"
  | "con";

/** Prefixed ids, 24 random base62 characters (about 143 bits): `prj_3kTq…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

const ID_PATTERN = /^[a-z]+_[0-9A-Za-z]{24}$/;

/** Whether a value has the shape of an id this API issues (any prefix). */
export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}
