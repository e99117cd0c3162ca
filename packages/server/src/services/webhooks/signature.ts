import { createHmac } from "node:crypto";

/** Hex HMAC-SHA256 of `timestamp + "." + body` with the subscription's secret (the spec's scheme). */
export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}
