import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseSecretKeys } from "../config/parse.ts";

/** The data folder's key file. */
export const KEY_FILE = "secret.key";

/**
 * The data folder's key, generated on first start (mode 0600). Processes starting at once agree:
 * the key is written to a private temporary file and linked into place, which fails if another
 * process got there first; then everyone reads the one file that won.
 */
export function dataFolderKey(dataDir: string): Buffer {
  const path = join(dataDir, KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  const temporary = join(dataDir, `.${KEY_FILE}.${process.pid}.${randomBytes(4).toString("hex")}`);
  writeFileSync(temporary, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  const [key] = parseSecretKeys(readFileSync(path, "utf8"));
  if (key === undefined) throw new Error(`${path} holds no key`);
  return key;
}
