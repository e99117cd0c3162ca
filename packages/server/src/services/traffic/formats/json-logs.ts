import { digitsAt, parseClfTime, readStatus, readTarget, rejected, SKIP } from "./combined.ts";
import type { LineParser, LogFormat, LogRecord, ParsedLine } from "./types.ts";

/**
 * JSON-per-line logs: Cloudflare Logpush (http_requests), Vercel log drains, Fastly JSON logging and
 * any JSON lines with a field mapping. All four are one engine: each field is read from a list of
 * candidate keys (dot paths reach into nested objects), the first present one wins.
 */

/** Where the generic "jsonl" format reads each field unless the caller maps it elsewhere. */
export const DEFAULT_JSONL_FIELDS = {
  time: "time",
  ip: "ip",
  method: "method",
  host: "host",
  path: "path",
  query: "query",
  status: "status",
  user_agent: "user_agent",
  referrer: "referrer",
};

type Field = keyof typeof DEFAULT_JSONL_FIELDS;
export type JsonlFields = Partial<Record<Field, string>>;
/** Candidate keys per field, first present wins; an empty list: the format does not have it. */
type Spec = Record<Field, string[]>;

/** Logpush timestamps are RFC 3339, Unix seconds or Unix nanoseconds, per the job's output options. */
const CLOUDFLARE: Spec = {
  time: ["EdgeStartTimestamp"],
  ip: ["ClientIP"],
  method: ["ClientRequestMethod"],
  host: ["ClientRequestHost"],
  path: ["ClientRequestURI", "ClientRequestPath"],
  query: [],
  status: ["EdgeResponseStatus"],
  user_agent: ["ClientRequestUserAgent"],
  referrer: ["ClientRequestReferer"],
};

/** Request data sits in `proxy` (its `timestamp` in ms, `userAgent` an array of header values). */
const VERCEL: Spec = {
  time: ["proxy.timestamp", "timestamp"],
  ip: ["proxy.clientIp"],
  method: ["proxy.method"],
  host: ["proxy.host", "host"],
  path: ["proxy.path"],
  query: [],
  status: ["proxy.statusCode"],
  user_agent: ["proxy.userAgent"],
  referrer: ["proxy.referer"],
};

/** Fastly's logging is a format string the customer writes: its documented JSON example, and common variants. */
const FASTLY: Spec = {
  time: ["timestamp", "time"],
  ip: ["client_ip"],
  method: ["request_method", "method"],
  host: ["host"],
  path: ["url", "path"],
  query: [],
  status: ["response_status", "status"],
  user_agent: ["request_user_agent", "user_agent"],
  referrer: ["request_referer", "referer"],
};

/** A key as written, and its dot path when it has dots (a flat key with dots, as some shippers write, wins). */
interface Key {
  name: string;
  parts: string[] | null;
}
type Compiled = Record<Field, Key[]>;

const FIELDS = Object.keys(DEFAULT_JSONL_FIELDS) as Field[];

function byField<T>(read: (field: Field) => T): Record<Field, T> {
  return Object.fromEntries(FIELDS.map((field) => [field, read(field)])) as Record<Field, T>;
}

function compile(spec: Spec): Compiled {
  const key = (name: string): Key => ({ name, parts: name.includes(".") ? name.split(".") : null });
  return byField((field) => spec[field].filter((name) => name !== "").map(key));
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first candidate's value that is present (neither missing nor null). */
function pick(object: JsonObject, keys: Key[]): unknown {
  for (const key of keys) {
    let value = object[key.name];
    if (value === undefined && key.parts !== null) {
      value = object;
      for (const part of key.parts) value = isObject(value) ? value[part] : undefined;
    }
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

/** Text, with the ways logs write "nothing" (`-`, empty, Fastly's `(null)`) as null; arrays are header values. */
function text(value: unknown): string | null {
  if (typeof value === "string") return value === "" || value === "-" || value === "(null)" ? null : value;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) {
    const parts = value.filter((part): part is string => typeof part === "string" && part !== "");
    return parts.length === 0 ? null : parts.length === 1 ? (parts[0] ?? null) : parts.join(", ");
  }
  return null;
}

/** Epoch numbers by magnitude: seconds, milliseconds, microseconds or nanoseconds. */
function fromEpoch(n: number): number {
  const abs = Math.abs(n);
  return abs < 1e11 ? n * 1000 : abs < 1e14 ? n : abs < 1e17 ? n / 1000 : n / 1e6;
}

/** `2026-10-10T11:55:36`, optional fraction, optional zone (`Z`, `+02:00`, `+0200`), as ms; NaN otherwise. */
function isoTime(s: string): number {
  const separators = s[4] === "-" && s[7] === "-" && (s[10] === "T" || s[10] === " ") && s[13] === ":" && s[16] === ":";
  const month = digitsAt(s, 5, 2);
  const day = digitsAt(s, 8, 2);
  const hour = digitsAt(s, 11, 2);
  const minute = digitsAt(s, 14, 2);
  const second = digitsAt(s, 17, 2);
  const year = digitsAt(s, 0, 4);
  if (!separators || year < 0 || month < 1 || month > 12 || day < 1 || day > 31) return Number.NaN;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return Number.NaN;
  let i = 19;
  let millis = 0;
  if (s[i] === "." || s[i] === ",") {
    const from = ++i;
    while (digitsAt(s, i, 1) >= 0) i++;
    const kept = Math.min(i - from, 3);
    if (kept === 0) return Number.NaN;
    millis = digitsAt(s, from, kept) * 10 ** (3 - kept);
  }
  if (s[i] === " ") i++;
  let offset = 0;
  if (s[i] === "Z" || s[i] === "z") i++;
  else if (s[i] === "+" || s[i] === "-") {
    const hours = digitsAt(s, i + 1, 2);
    const colon = s[i + 3] === ":" ? 1 : 0;
    const bare = i + 3 === s.length; // "+02"
    const minutes = bare ? 0 : digitsAt(s, i + 3 + colon, 2);
    if (hours < 0 || minutes < 0) return Number.NaN;
    offset = (s[i] === "-" ? -1 : 1) * (hours * 60 + minutes);
    i += bare ? 3 : 5 + colon;
  }
  if (i !== s.length) return Number.NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset * 60_000;
}

/** A JSON time as milliseconds since the epoch, or NaN. A time without a zone is read as UTC, never local. */
function parseTime(value: unknown): number {
  if (typeof value === "number") return Number.isFinite(value) ? Math.round(fromEpoch(value)) : Number.NaN;
  if (typeof value !== "string" || value.length < 9) return Number.NaN;
  if (value[4] === "-") return isoTime(value);
  if (value[2] === "/") return parseClfTime(value, 0, value.length);
  // Epoch numbers written as text; Number() alone would also take "0x1f" or "1e3".
  const epoch = /^\d{9,20}(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  return Math.round(fromEpoch(epoch));
}

/** A status: the number, 0 when there is none (Vercel writes -1 when no response was sent), -1 when bad. */
function status(value: unknown): number {
  const written = typeof value === "number" && value <= 0 ? null : text(value);
  return written === null ? 0 : readStatus(written, 0, written.length);
}

const NOT_JSON = rejected("not JSON");
const NOT_OBJECT = rejected("not a JSON object");
const NO_TIME = rejected("no timestamp");
const BAD_TIME = rejected("bad timestamp");
const NO_PATH = rejected("no path");
const BAD_STATUS = rejected("bad status");
const SEVERAL = rejected("several requests on one line");

function readObject(object: unknown, fields: Compiled, requires: string | null): ParsedLine {
  if (!isObject(object)) return NOT_OBJECT;
  // Vercel sends build and function output through the same drain: only proxied requests count.
  if (requires !== null && !isObject(object[requires])) return SKIP;
  const time = pick(object, fields.time);
  if (time === undefined) return NO_TIME;
  const at = parseTime(time);
  if (Number.isNaN(at)) return BAD_TIME;
  const target = text(pick(object, fields.path));
  if (target === null) return NO_PATH;
  const code = status(pick(object, fields.status));
  if (code < 0) return BAD_STATUS;
  const record: LogRecord = {
    at: new Date(at),
    ip: text(pick(object, fields.ip)),
    method: text(pick(object, fields.method)),
    host: text(pick(object, fields.host)),
    path: "",
    query: null,
    status: code > 0 ? code : null,
    userAgent: text(pick(object, fields.user_agent)),
    referrer: text(pick(object, fields.referrer)),
  };
  const host = record.host;
  readTarget(target, 0, target.length, record);
  // A host in the request itself (an absolute URL) is what was asked for; keep the logged one otherwise.
  if (host !== null && record.host === null) record.host = host;
  const query = text(pick(object, fields.query));
  if (query !== null) record.query = query.startsWith("?") ? query.slice(1) || null : query;
  return { kind: "record", record };
}

/**
 * A JSON parser. `parse` takes one request per line; a line holding an array (Vercel's JSON delivery
 * puts a whole batch in one body) is read whole by `parseAll`, one result per element.
 */
export interface JsonLineParser extends LineParser {
  parseAll(line: string): ParsedLine[];
}

function jsonParser(format: LogFormat, spec: Spec, requires: string | null = null): JsonLineParser {
  const fields = compile(spec);
  const decode = (line: string): unknown => {
    let start = 0;
    while (line.charCodeAt(start) === 32 || line.charCodeAt(start) === 9) start++;
    const first = line.charCodeAt(start);
    if (first !== 123 && first !== 91) return NOT_JSON; // "{" or "["
    try {
      return JSON.parse(line);
    } catch {
      return NOT_JSON;
    }
  };
  const parseAll = (line: string): ParsedLine[] => {
    if (line.trim() === "") return [SKIP];
    const value = decode(line);
    if (value === NOT_JSON) return [NOT_JSON];
    return Array.isArray(value)
      ? value.map((item) => readObject(item, fields, requires))
      : [readObject(value, fields, requires)];
  };
  return {
    format,
    parseAll,
    parse(line) {
      // The common case, one object per line, skips the array detour.
      if (line.charCodeAt(0) === 123) {
        const value = decode(line);
        return value === NOT_JSON ? NOT_JSON : readObject(value, fields, requires);
      }
      const results = parseAll(line);
      const records = results.filter((result) => result.kind === "record");
      if (records.length > 1) return SEVERAL;
      return records[0] ?? results.find((result) => result.kind === "rejected") ?? SKIP;
    },
  };
}

export function createCloudflareParser(): JsonLineParser {
  return jsonParser("cloudflare", CLOUDFLARE);
}

export function createVercelParser(): JsonLineParser {
  return jsonParser("vercel", VERCEL, "proxy");
}

export function createFastlyParser(): JsonLineParser {
  return jsonParser("fastly", FASTLY);
}

/** Generic JSON lines: `fields` maps each field to a key or dot path (`request.headers.user-agent`); "" leaves it out. */
export function createJsonlParser(fields: JsonlFields = {}): JsonLineParser {
  const spec = byField((field) => [fields[field] ?? DEFAULT_JSONL_FIELDS[field]]);
  return jsonParser("jsonl", spec);
}
