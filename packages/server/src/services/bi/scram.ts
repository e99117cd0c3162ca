import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";

const ITERATIONS = 4096;

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for `password` (RFC 5802/7677, PostgreSQL's
 * `SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey`). Sent in `CREATE ROLE … PASSWORD`, it lets
 * the server check the password without the password itself ever reaching the server, its logs or
 * `pg_stat_activity` (what psql's \password does). The password must be ASCII, where SASLprep
 * changes nothing: the generated ones are base64url.
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = ITERATIONS): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}
