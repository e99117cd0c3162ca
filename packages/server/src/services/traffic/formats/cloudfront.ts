import { digitsAt, readStatus, rejected, SKIP } from "./combined.ts";
import type { LineParser, LogRecord, ParsedLine } from "./types.ts";

/**
 * AWS CloudFront standard logs (W3C extended, tab-separated). A file starts with `#Version` and
 * `#Fields` lines; the columns follow the last `#Fields` line, since distributions may select or
 * reorder fields, and CloudFront's documented order stands in until one is seen.
 */

/** CloudFront's documented standard log fields, in order (standard logs reference, "Log file fields"). */
export const CLOUDFRONT_FIELDS = [
  "date",
  "time",
  "x-edge-location",
  "sc-bytes",
  "c-ip",
  "cs-method",
  "cs(Host)",
  "cs-uri-stem",
  "sc-status",
  "cs(Referer)",
  "cs(User-Agent)",
  "cs-uri-query",
  "cs(Cookie)",
  "x-edge-result-type",
  "x-edge-request-id",
  "x-host-header",
  "cs-protocol",
  "cs-bytes",
  "time-taken",
  "x-forwarded-for",
  "ssl-protocol",
  "ssl-cipher",
  "x-edge-response-result-type",
  "cs-protocol-version",
  "fle-status",
  "fle-encrypted-fields",
  "c-port",
  "time-to-first-byte",
  "x-edge-detailed-result-type",
  "sc-content-type",
  "sc-content-len",
  "sc-range-start",
  "sc-range-end",
] as const;

/** The columns a record needs, by slot. */
const WANTED = [
  "date",
  "time",
  "c-ip",
  "cs-method",
  "cs(Host)",
  "x-host-header",
  "cs-uri-stem",
  "cs-uri-query",
  "sc-status",
  "cs(Referer)",
  "cs(User-Agent)",
];
const DATE = 0;
const TIME = 1;
const IP = 2;
const METHOD = 3;
const DISTRIBUTION = 4;
const HOST_HEADER = 5;
const STEM = 6;
const QUERY = 7;
const STATUS = 8;
const REFERER = 9;
const AGENT = 10;

const NOT_LINE = rejected("not a CloudFront log line");
const NO_TIME = rejected("no timestamp");
const BAD_TIME = rejected("bad timestamp");
const NO_PATH = rejected("no path");
const BAD_STATUS = rejected("bad status");

/** Which slot each column fills (-1: not needed), and the last column worth reading. */
interface Layout {
  slots: Int8Array;
  last: number;
}

function layout(columns: readonly string[]): Layout {
  const slots = new Int8Array(columns.length).fill(-1);
  let last = -1;
  WANTED.forEach((name, slot) => {
    const column = columns.indexOf(name);
    if (column < 0) return;
    slots[column] = slot;
    last = Math.max(last, column);
  });
  return { slots, last };
}

const STANDARD = layout(CLOUDFRONT_FIELDS);

/** `2026-10-10` and `13:55:36` (UTC) as milliseconds since the epoch, or NaN. */
function cloudFrontTime(date: string, time: string): number {
  if (date.length !== 10 || date[4] !== "-" || date[7] !== "-" || time.length < 8 || time[2] !== ":") {
    return Number.NaN;
  }
  const year = digitsAt(date, 0, 4);
  const month = digitsAt(date, 5, 2);
  const day = digitsAt(date, 8, 2);
  const hour = digitsAt(time, 0, 2);
  const minute = digitsAt(time, 3, 2);
  const second = digitsAt(time, 6, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || time[5] !== ":") return Number.NaN;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return Number.NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

function orNull(value: string | undefined): string | null {
  return value === undefined || value === "-" || value === "" ? null : value;
}

/** CloudFront URL-encodes the agent and referrer (`%20` for a space); a malformed escape keeps the raw text. */
function decoded(value: string | undefined): string | null {
  const text = orNull(value);
  if (text === null || !text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function createCloudFrontParser(): LineParser {
  let current = STANDARD;
  // One array reused for every line: only the needed columns are cut out of it.
  const values: (string | undefined)[] = new Array(WANTED.length).fill(undefined);
  return {
    format: "cloudfront",
    parse(line): ParsedLine {
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      if (line.length === 0) return SKIP;
      if (line.charCodeAt(0) === 35) {
        if (line.startsWith("#Fields:")) current = layout(line.slice(8).trim().split(/\s+/));
        return SKIP;
      }
      if (line.trim() === "") return SKIP;
      // Tabs as written; spaces when a tool re-wrote the file (every value is URL-encoded, so none holds one).
      const separator = line.indexOf("\t") >= 0 ? "\t" : " ";
      const { slots, last } = current;
      values.fill(undefined);
      let from = 0;
      let column = 0;
      for (; column <= last && from <= line.length; column++) {
        let to = line.indexOf(separator, from);
        if (to < 0) to = line.length;
        const slot = slots[column] ?? -1;
        if (slot >= 0) values[slot] = line.slice(from, to);
        from = to + 1;
      }
      if (column <= last) return NOT_LINE;

      const date = values[DATE];
      const time = values[TIME];
      if (date === undefined || time === undefined) return NO_TIME;
      const at = cloudFrontTime(date, time);
      if (Number.isNaN(at)) return BAD_TIME;
      const path = orNull(values[STEM]);
      if (path === null) return NO_PATH;
      const statusText = values[STATUS];
      const status = statusText === undefined ? 0 : readStatus(statusText, 0, statusText.length);
      if (status < 0) return BAD_STATUS;
      const record: LogRecord = {
        at: new Date(at),
        ip: orNull(values[IP]),
        method: orNull(values[METHOD]),
        // cs(Host) is the distribution's own domain; x-host-header is the site the visitor asked for.
        host: orNull(values[HOST_HEADER]) ?? orNull(values[DISTRIBUTION]),
        path,
        query: orNull(values[QUERY]),
        status: status > 0 ? status : null,
        userAgent: decoded(values[AGENT]),
        referrer: decoded(values[REFERER]),
      };
      return { kind: "record", record };
    },
  };
}
