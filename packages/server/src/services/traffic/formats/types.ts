/**
 * One line of an access log, as every format is read into (issue 26). Only what classifying a
 * request needs: when, from which address, which page, what was answered, who asked (user agent)
 * and where they came from (referrer). Nothing else of a line is kept.
 */
export interface LogRecord {
  /** When the request was served (UTC). */
  at: Date;
  /** The client's address as the log wrote it (IPv4 or IPv6), or null when the format has none. */
  ip: string | null;
  method: string | null;
  /** The host asked for, when the log says it (CDN logs do; a plain nginx log may not). */
  host: string | null;
  /** The path, without its query string, as requested (not decoded). */
  path: string;
  /** The query string without "?", or null. */
  query: string | null;
  status: number | null;
  userAgent: string | null;
  referrer: string | null;
}

/** A line read: a record, a line to skip (a comment or a header), or a line rejected with why. */
export type ParsedLine =
  | { kind: "record"; record: LogRecord }
  | { kind: "skip" }
  | { kind: "rejected"; reason: string };

export const LOG_FORMATS = ["combined", "common", "cloudfront", "cloudflare", "vercel", "fastly", "jsonl"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Reads one format line by line. A parser may keep state between lines (CloudFront's `#Fields`). */
export interface LineParser {
  readonly format: LogFormat;
  parse(line: string): ParsedLine;
}
