import type { LineParser, LogRecord, ParsedLine } from "./types.ts";

/**
 * nginx/Apache "combined" and "common" access logs:
 *   $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"
 * "common" stops after the byte count; nginx setups often append more quoted fields (such as
 * "$http_x_forwarded_for"), which are ignored. Lines are read with indexOf scans rather than one
 * regex: a busy site writes millions of lines a day, and a regex over quoted fields with escapes can
 * backtrack badly on a hostile line. The small helpers below are shared with the other formats.
 */

const SPACE = 32;
const QUOTE = 34;
const STAR = 42;
const SLASH = 47;
const BACKSLASH = 92;

export const SKIP: ParsedLine = { kind: "skip" };

export function rejected(reason: string): ParsedLine {
  return { kind: "rejected", reason };
}

const BAD_TIME = rejected("bad timestamp");
const BAD_STATUS = rejected("bad status");
const BAD_REQUEST = rejected("bad request line");

/** The number written in `count` ASCII digits at `at`, or -1 when one of them is not a digit. */
export function digitsAt(s: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = s.charCodeAt(i) - 48;
    // NaN (past the end) fails both comparisons, so it is caught too.
    if (!(d >= 0 && d <= 9)) return -1;
    n = n * 10 + d;
  }
  return n;
}

const MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

/**
 * `10/Oct/2026:13:55:36 +0200` (optionally with `.123` after the seconds) between `from` and `to`,
 * as milliseconds since the epoch (UTC), or NaN.
 */
export function parseClfTime(s: string, from: number, to: number): number {
  const zone = to - 5;
  if (to - from < 26 || s.charCodeAt(zone - 1) !== SPACE) return Number.NaN;
  const day = digitsAt(s, from, 2);
  const monthAt = MONTHS.indexOf(s.slice(from + 3, from + 6));
  const year = digitsAt(s, from + 7, 4);
  const hour = digitsAt(s, from + 12, 2);
  const minute = digitsAt(s, from + 15, 2);
  const second = digitsAt(s, from + 18, 2);
  const offset = digitsAt(s, zone + 1, 2) * 60 + digitsAt(s, zone + 3, 2);
  const sign = s.charCodeAt(zone) === 45 ? -1 : s.charCodeAt(zone) === 43 ? 1 : 0;
  const separators =
    s[from + 2] === "/" && s[from + 6] === "/" && s[from + 11] === ":" && s[from + 14] === ":" && s[from + 17] === ":";
  if (!separators || monthAt < 0 || monthAt % 3 !== 0 || year < 0 || sign === 0 || offset < 0) return Number.NaN;
  if (day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
    return Number.NaN;
  }
  let millis = 0;
  const fraction = zone - 1 - (from + 20);
  if (fraction > 0) {
    // Milliseconds some setups add: `.` then digits; only the first three count.
    const digits = Math.min(fraction - 1, 3);
    millis = s[from + 20] === "." && digits > 0 ? digitsAt(s, from + 21, digits) * 10 ** (3 - digits) : -1;
    if (millis < 0) return Number.NaN;
  }
  return Date.UTC(year, monthAt / 3, day, hour, minute, second, millis) - sign * offset * 60_000;
}

/** An HTTP status between `from` and `to`: the status, 0 when there is none ("-", "000"), -1 when bad. */
export function readStatus(s: string, from: number, to: number): number {
  if (to - from === 1 && s.charCodeAt(from) === 45) return 0;
  const status = to - from === 3 ? digitsAt(s, from, 3) : -1;
  if (status === 0) return 0;
  return status >= 100 && status <= 599 ? status : -1;
}

/**
 * Reads a request target (`/path?x=1`, or the absolute form `https://host/path` that proxies log)
 * into the record's host, path and query. Neither is decoded: the path stays as requested.
 */
export function readTarget(
  s: string,
  from: number,
  to: number,
  into: Pick<LogRecord, "host" | "path" | "query">,
): void {
  let pathFrom = from;
  const scheme =
    s.charCodeAt(from) === SLASH ? 0 : s.startsWith("http://", from) ? 7 : s.startsWith("https://", from) ? 8 : 0;
  if (scheme > 0) {
    let slash = s.indexOf("/", from + scheme);
    if (slash < 0 || slash > to) slash = to;
    const question = s.indexOf("?", from + scheme);
    if (question >= 0 && question < slash) slash = question;
    if (slash > from + scheme) into.host = s.slice(from + scheme, slash);
    pathFrom = slash;
  }
  let question = s.indexOf("?", pathFrom);
  if (question >= to) question = -1;
  const pathTo = question < 0 ? to : question;
  into.path = pathTo === pathFrom ? "/" : s.slice(pathFrom, pathTo);
  into.query = question < 0 || question + 1 === to ? null : s.slice(question + 1, to);
}

/** Index of the quote that closes the field opened at `open`, honouring backslash escapes; -1 if none. */
function closingQuote(s: string, open: number): number {
  const quote = s.indexOf('"', open + 1);
  const backslash = s.indexOf("\\", open + 1);
  if (quote < 0 || backslash < 0 || backslash > quote) return quote;
  // Escapes before the quote: walk the rest by hand, which stays linear on a hostile line.
  for (let i = backslash; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

/** Undoes Apache's `\"` and `\\` and nginx's `\xHH` (printable ASCII only; other bytes stay escaped). */
function unescapeField(s: string, from: number, to: number): string {
  let out = "";
  let kept = from;
  for (let i = s.indexOf("\\", from); i >= 0 && i < to; i = s.indexOf("\\", i + 1)) {
    const next = s[i + 1];
    const hex = next === "x" ? Number.parseInt(s.slice(i + 2, i + 4), 16) : Number.NaN;
    if (next === '"' || next === "\\") {
      out += s.slice(kept, i) + next;
      kept = ++i + 1;
    } else if (hex >= 0x20 && hex < 0x7f && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 2, i + 4))) {
      out += s.slice(kept, i) + String.fromCharCode(hex);
      i += 3;
      kept = i + 1;
    }
  }
  return out + s.slice(kept, to);
}

/** A quoted field's value: null for "-" or empty. `escaped` says whether the line holds a backslash at all. */
function quoted(s: string, from: number, to: number, escaped: boolean): string | null {
  if (to === from || (to - from === 1 && s.charCodeAt(from) === 45)) return null;
  if (escaped) {
    const backslash = s.indexOf("\\", from);
    if (backslash >= 0 && backslash < to) return unescapeField(s, from, to);
  }
  return s.slice(from, to);
}

/** `METHOD target HTTP/x` into the record; false when it is not a request line ("-", a TLS handshake…). */
function readRequest(s: string, from: number, to: number, escaped: boolean, into: LogRecord): boolean {
  if (escaped) {
    const backslash = s.indexOf("\\", from);
    if (backslash >= 0 && backslash < to) {
      s = unescapeField(s, from, to);
      from = 0;
      to = s.length;
    }
  }
  const space = s.indexOf(" ", from);
  if (space <= from || space >= to || space - from > 20) return false;
  for (let i = from; i < space; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 65 && c <= 90) || c === 45 || c === 95)) return false;
  }
  let targetEnd = s.lastIndexOf(" ", to - 1);
  if (targetEnd > space) {
    if (!s.startsWith("HTTP/", targetEnd + 1)) return false;
  } else targetEnd = to; // HTTP/0.9: no protocol
  const first = s.charCodeAt(space + 1);
  const target =
    first === SLASH ||
    (first === STAR && targetEnd === space + 2) ||
    s.startsWith("http://", space + 1) ||
    s.startsWith("https://", space + 1);
  if (!target) return false;
  into.method = s.slice(from, space);
  readTarget(s, space + 1, targetEnd, into);
  return true;
}

function parseLine(line: string, notLine: ParsedLine): ParsedLine {
  const space = line.indexOf(" ");
  const open = space > 0 ? line.indexOf("[", space) : -1;
  const close = open > 0 ? line.indexOf("]", open) : -1;
  if (close < 0 || line.charCodeAt(close + 1) !== SPACE || line.charCodeAt(close + 2) !== QUOTE) return notLine;
  const requestEnd = closingQuote(line, close + 2);
  if (requestEnd < 0 || line.charCodeAt(requestEnd + 1) !== SPACE) return notLine;
  const statusFrom = requestEnd + 2;
  const statusTo = line.indexOf(" ", statusFrom);
  if (statusTo <= statusFrom) return notLine;
  let bytesTo = line.indexOf(" ", statusTo + 1);
  if (bytesTo < 0) bytesTo = line.length;
  if (bytesTo === statusTo + 1) return notLine;

  const escaped = line.indexOf("\\") >= 0;
  let referrer: string | null = null;
  let userAgent: string | null = null;
  if (bytesTo < line.length) {
    const refererOpen = bytesTo + 1;
    const refererEnd = line.charCodeAt(refererOpen) === QUOTE ? closingQuote(line, refererOpen) : -1;
    if (refererEnd < 0 || line.charCodeAt(refererEnd + 1) !== SPACE || line.charCodeAt(refererEnd + 2) !== QUOTE) {
      return notLine;
    }
    const agentEnd = closingQuote(line, refererEnd + 2);
    if (agentEnd < 0) return notLine;
    referrer = quoted(line, refererOpen + 1, refererEnd, escaped);
    userAgent = quoted(line, refererEnd + 3, agentEnd, escaped);
  }

  const at = parseClfTime(line, open + 1, close);
  if (Number.isNaN(at)) return BAD_TIME;
  const status = readStatus(line, statusFrom, statusTo);
  const ip = space === 1 && line.charCodeAt(0) === 45 ? null : line.slice(0, space);
  const record: LogRecord = {
    at: new Date(at),
    ip,
    method: null,
    host: null,
    path: "",
    query: null,
    status: status > 0 ? status : null,
    userAgent,
    referrer,
  };
  if (!readRequest(line, close + 3, requestEnd, escaped, record)) return BAD_REQUEST;
  if (status < 0) return BAD_STATUS;
  return { kind: "record", record };
}

/** A parser for "combined" or "common" lines; either accepts both shapes (common lines have no referrer or agent). */
export function createCombinedParser(format: "combined" | "common" = "combined"): LineParser {
  const notLine = rejected(`not a ${format} log line`);
  return {
    format,
    parse(line) {
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      const first = line.charCodeAt(0);
      if (line.length === 0 || first === 35) return SKIP; // blank, or a "#" comment
      if (first === SPACE || first === 9) return line.trim() === "" ? SKIP : notLine;
      return parseLine(line, notLine);
    },
  };
}
