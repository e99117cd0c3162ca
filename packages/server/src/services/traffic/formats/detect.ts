import { createCloudFrontParser } from "./cloudfront.ts";
import { createCombinedParser } from "./combined.ts";
import {
  createCloudflareParser,
  createFastlyParser,
  createJsonlParser,
  createVercelParser,
  DEFAULT_JSONL_FIELDS,
  type JsonlFields,
} from "./json-logs.ts";
import type { LineParser, LogFormat } from "./types.ts";

/** How many non-blank lines detection looks at: enough to outvote a stray bad line, cheap on any file. */
const SAMPLE = 20;

// Only run on the sample, never per line. Quoted fields allow escaped quotes; nothing nests, so no blowup.
const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
const ACCESS_LINE = new RegExp(
  String.raw`^\S+ \S+ \S+ \[[^\]]+\] ${QUOTED} (?:\d{3}|-) (?:\d+|-)( ${QUOTED} ${QUOTED})?`,
);
const CLOUDFRONT_ROW = /^\d{4}-\d{2}-\d{2}\t\d{2}:\d{2}:\d{2}\t/;

const TIME_KEYS = ["time", "timestamp", "@timestamp", "ts", "date", "datetime"];
const PATH_KEYS = ["path", "url", "uri", "request_uri", "request_path", "request"];

function hasDotPath(object: Record<string, unknown>, path: string): boolean {
  let value: unknown = object;
  for (const part of path.split(".")) {
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value !== undefined;
}

function guessJson(value: unknown): LogFormat | null {
  if (Array.isArray(value)) return value.length > 0 ? guessJson(value[0]) : null;
  if (typeof value !== "object" || value === null) return null;
  const object = value as Record<string, unknown>;
  const has = (key: string) => object[key] !== undefined;
  if (has("ClientRequestURI") || has("EdgeStartTimestamp")) return "cloudflare";
  // Vercel drains carry build and function output too: their ids mark those lines even without `proxy`.
  if (typeof object.proxy === "object" || (has("deploymentId") && has("source"))) return "vercel";
  if (has("response_status") || has("request_user_agent")) return "fastly";
  const defaults = hasDotPath(object, DEFAULT_JSONL_FIELDS.time) && hasDotPath(object, DEFAULT_JSONL_FIELDS.path);
  return defaults || (TIME_KEYS.some(has) && PATH_KEYS.some(has)) ? "jsonl" : null;
}

function guessLine(line: string): LogFormat | null {
  const first = line[0];
  if (first === "{" || first === "[") {
    try {
      return guessJson(JSON.parse(line));
    } catch {
      return null;
    }
  }
  if (CLOUDFRONT_ROW.test(line)) return "cloudfront";
  const access = ACCESS_LINE.exec(line);
  if (access === null) return null;
  return access[1] === undefined ? "common" : "combined";
}

/**
 * The format of a log from its first lines, or null when none is recognised. "jsonl" means JSON lines
 * whose time and path look mappable; the default mapping may still need adjusting.
 */
export function detectFormat(lines: string[]): LogFormat | null {
  const votes = new Map<LogFormat, number>();
  let seen = 0;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("#Version") || line.startsWith("#Fields")) return "cloudfront";
    if (line.startsWith("#")) continue;
    const guess = guessLine(line);
    if (guess !== null) votes.set(guess, (votes.get(guess) ?? 0) + 1);
    if (++seen >= SAMPLE) break;
  }
  // A combined parser reads common lines too, so a log mixing them is combined.
  const combined = votes.get("combined");
  if (combined !== undefined) votes.set("combined", combined + (votes.get("common") ?? 0));
  let best: LogFormat | null = null;
  for (const [format, count] of votes) if (best === null || count > (votes.get(best) ?? 0)) best = format;
  return best;
}

export interface ParserOptions {
  /** For "jsonl": where each field is read (a key or a dot path); unmapped fields keep their defaults. */
  fields?: JsonlFields;
}

export function createParser(format: LogFormat, options: ParserOptions = {}): LineParser {
  switch (format) {
    case "combined":
    case "common":
      return createCombinedParser(format);
    case "cloudfront":
      return createCloudFrontParser();
    case "cloudflare":
      return createCloudflareParser();
    case "vercel":
      return createVercelParser();
    case "fastly":
      return createFastlyParser();
    case "jsonl":
      return createJsonlParser(options.fields);
  }
}
