import { createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookEvent } from "./generated/events.ts";

export type WebhookVerificationFailure =
  | "missing_header"
  | "invalid_timestamp"
  | "timestamp_out_of_tolerance"
  | "invalid_signature"
  | "invalid_payload";

/** Thrown by verifyWebhook: answer the delivery with a 400 and do not act on it. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

/** Node's `req.headers`, a Fetch `Headers`, or any name → value map. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Largest accepted distance between the delivery's timestamp and now. Default 300 (five minutes). */
  toleranceSeconds?: number;
  /** What "now" is; the system clock by default. */
  now?: Date | number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/**
 * Checks that a delivery comes from Sightline and is fresh, then returns its event. Pass the raw
 * body exactly as received (before any JSON parsing). The signature is compared in constant time;
 * a timestamp more than `toleranceSeconds` away from now is refused (replay protection).
 *
 * @throws WebhookVerificationError
 * @example
 * import { createServer } from "node:http";
 * import { verifyWebhook, WebhookVerificationError } from "@sightline/sdk";
 *
 * createServer((req, res) => {
 *   const chunks: Buffer[] = [];
 *   req.on("data", (chunk) => chunks.push(chunk));
 *   req.on("end", () => {
 *     try {
 *       const event = verifyWebhook(Buffer.concat(chunks), req.headers, process.env.SIGHTLINE_WEBHOOK_SECRET ?? "");
 *       if (event.type === "project.created") console.log("new brand", event.data.object.name);
 *       res.writeHead(200).end();
 *     } catch (error) {
 *       res.writeHead(error instanceof WebhookVerificationError ? 400 : 500).end();
 *     }
 *   });
 * }).listen(3000);
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): WebhookEvent {
  const timestamp = header(headers, "x-webhook-timestamp");
  const signature = header(headers, "x-webhook-signature");
  if (timestamp === undefined || signature === undefined) {
    throw new WebhookVerificationError("missing_header", "X-Webhook-Timestamp and X-Webhook-Signature are required");
  }
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError("invalid_timestamp", "X-Webhook-Timestamp is not a unix time in seconds");
  }
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody);
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest();
  const received = /^[0-9a-fA-F]{64}$/.test(signature.trim()) ? Buffer.from(signature.trim(), "hex") : Buffer.alloc(0);
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
    throw new WebhookVerificationError(
      "invalid_signature",
      "The signature does not match: wrong secret, or the body was altered",
    );
  }
  const tolerance = options.toleranceSeconds ?? 300;
  const nowMs =
    options.now === undefined ? Date.now() : typeof options.now === "number" ? options.now : options.now.getTime();
  if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_out_of_tolerance",
      `The delivery's timestamp is more than ${tolerance} s from now: a replay, or a clock out of sync`,
    );
  }
  try {
    return JSON.parse(body.toString("utf8")) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError("invalid_payload", "The body is not JSON");
  }
}
