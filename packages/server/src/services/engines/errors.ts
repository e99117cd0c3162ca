import type { EngineOutcome } from "./types.ts";
import { failure } from "./types.ts";

function header(headers: unknown, name: string): string | null {
  if (headers === null || headers === undefined) return null;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === "string" ? value : null;
}

/**
 * Seconds from `retry-after-ms`, `retry-after` (seconds or an HTTP date), or null. An HTTP date is
 * measured against the answer's own `Date` header, so that neither our clock nor the skew between
 * the vendor's and ours matters; without one, the date says nothing usable.
 */
function retryAfterSeconds(headers: unknown): number | null {
  const ms = header(headers, "retry-after-ms");
  if (ms !== null && Number.isFinite(Number(ms))) return Math.max(0, Number(ms) / 1000);
  const value = header(headers, "retry-after");
  if (value === null) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  const date = Date.parse(value);
  const sent = Date.parse(header(headers, "date") ?? "");
  return Number.isNaN(date) || Number.isNaN(sent) ? null : Math.max(0, (date - sent) / 1000);
}

/**
 * The error's names: its `name` and its classes' names up the prototype chain. The vendors' SDKs
 * do not all set `name` (openai's APIConnectionError is named "Error"), but their classes are.
 */
function namesOf(error: unknown): Set<string> {
  const names = new Set<string>();
  const own = (error as { name?: unknown })?.name;
  if (typeof own === "string") names.add(own);
  for (let proto = error; proto !== null && typeof proto === "object"; proto = Object.getPrototypeOf(proto)) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === "string" && name !== "Object") names.add(name);
  }
  return names;
}

/**
 * Any SDK's error as a failure value: status and Retry-After when the vendor answered, retryable
 * for 408, 409, 429, 5xx, timeouts and lost connections; anything else (400, 401, 403, 404, a
 * body we cannot read) is final.
 */
export function toFailure(engine: string, error: unknown, timedOut: boolean): EngineOutcome {
  const e = error as { status?: unknown; code?: unknown; headers?: unknown; message?: unknown; name?: unknown };
  const status = typeof e.status === "number" ? e.status : typeof e.code === "number" ? e.code : null;
  const message = typeof e.message === "string" ? e.message.split("\n")[0]?.slice(0, 300) : String(error);
  const names = namesOf(error);
  if (timedOut || ["APIConnectionTimeoutError", "AbortError", "TimeoutError"].some((n) => names.has(n))) {
    return failure(`${engine} did not answer in time`, { retryable: true });
  }
  // Our own outbound rules refused the address (vendor-fetch.ts): say so, whatever the SDK wrapped it in.
  const refused = [error, (error as { cause?: unknown })?.cause]
    .map((e) => (e as { message?: unknown })?.message)
    .find((m): m is string => typeof m === "string" && m.startsWith("refused: "));
  if (refused !== undefined) return failure(`${engine}: ${refused}`);
  if (status === null) {
    const connection =
      names.has("APIConnectionError") || /fetch failed|ECONNREFUSED|ECONNRESET|socket/i.test(message ?? "");
    return failure(`${engine}: ${connection ? "connection failed" : message}`, { retryable: connection });
  }
  const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
  return failure(`${engine} answered HTTP ${status}: ${message}`, {
    retryable,
    status,
    retryAfter: retryAfterSeconds(e.headers),
  });
}
