import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseSecretKeys } from "../config/parse.ts";
import { KEY_FILE } from "./secret-key.ts";

/** The keys encrypting secrets at rest, and where they come from: SIGHTLINE_SECRET_KEY or a key file. */
export interface KeySource {
  keys: Buffer[];
  from: string;
}

/** The key file a backup's key is written to, beside it. */
export function backupKeyPath(backup: string): string {
  return `${backup}.key`;
}

/**
 * The keys this configuration encrypts with, without generating one (as starting a process would):
 * SIGHTLINE_SECRET_KEY, else the data folder's key file, else none.
 */
export function configuredKey(secretKeys: Buffer[] | null, dataDir: string): KeySource | null {
  if (secretKeys !== null) return { keys: secretKeys, from: "SIGHTLINE_SECRET_KEY" };
  const path = join(dataDir, KEY_FILE);
  if (!existsSync(path)) return null;
  // A process reads the file's first key only.
  return { keys: parseSecretKeys(readFileSync(path, "utf8")).slice(0, 1), from: path };
}

/** Writes keys as SIGHTLINE_SECRET_KEY takes them (base64, comma-separated, the encrypting one first). */
export function writeKeyFile(path: string, keys: Buffer[], options: { force: boolean }): void {
  writeFileSync(path, `${keys.map((key) => key.toString("base64")).join(",")}\n`, {
    mode: 0o600,
    flag: options.force ? "w" : "wx",
  });
  chmodSync(path, 0o600);
}

function readKeyFile(path: string): Buffer[] | null {
  if (!existsSync(path)) return null;
  try {
    return parseSecretKeys(readFileSync(path, "utf8"));
  } catch {
    throw new Error(`${path} holds no secret key (base64 of 32 bytes, comma-separated)`);
  }
}

/** What a restore did about the backup's key. */
export type KeyOutcome =
  /** The backup has no key file beside it: the operator must bring the key. */
  | { status: "absent" }
  /** The configuration already has the backup's key. */
  | { status: "configured"; from: string }
  /** The data folder had no key: the backup's is now its key file. */
  | { status: "installed"; path: string }
  /** The configuration encrypts with another key: secrets of the backup will not decrypt. */
  | { status: "differs"; from: string }
  /** Several keys, which a key file cannot carry (a process reads its first one only). */
  | { status: "several"; path: string };

/**
 * Gives the restored database its key: when the backup has a key file beside it and this configuration
 * has no key at all (a fresh data folder), that file becomes the data folder's key file. A configured
 * key is never replaced; the caller says when it is not the backup's.
 */
export function restoreKey(backup: string, secretKeys: Buffer[] | null, dataDir: string): KeyOutcome {
  const path = backupKeyPath(backup);
  const keys = readKeyFile(path);
  if (keys === null) return { status: "absent" };
  const configured = configuredKey(secretKeys, dataDir);
  if (configured !== null) {
    // Every key of the backup: a secret may still be encrypted with one rotated out since.
    return keys.every((key) => configured.keys.some((own) => own.equals(key)))
      ? { status: "configured", from: configured.from }
      : { status: "differs", from: configured.from };
  }
  if (keys.length > 1) return { status: "several", path };
  mkdirSync(dataDir, { recursive: true });
  const target = join(dataDir, KEY_FILE);
  writeKeyFile(target, keys, { force: false });
  return { status: "installed", path: target };
}
