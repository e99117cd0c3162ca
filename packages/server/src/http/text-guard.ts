import { Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { type ErrorDetail, validationError } from "../errors/api-error.ts";

/**
 * Characters that change how text displays without being seen: C0 and C1 controls (but tab and
 * line breaks), bidirectional embeddings, overrides, isolates and marks, zero-width spaces, the
 * word joiner and other invisible operators, the byte-order mark, soft hyphens, Hangul fillers.
 * `Ac\u200Bme` or `\u202Eemca` would display as another name; no name or prompt needs them.
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose.
  /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]/u;

/**
 * Zero-width joiners and non-joiners are how Persian, the Indic scripts and emoji sequences are
 * written (`می‌خواهم`, `👩‍💻`): allowed between two characters outside the Latin script and ASCII,
 * refused beside a Latin letter, where they only hide a difference (`Ac\u200Dme`).
 */
const JOINER_IN_LATIN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII as a range, controls included.
  /(?:^|[\p{Script=Latin}\u0000-\u007F])[\u200C\u200D]|[\u200C\u200D](?:$|[\p{Script=Latin}\u0000-\u007F])/u;

const NAMES = new Map<string, string>(
  Object.entries({
    "\u200b": "ZERO WIDTH SPACE",
    "\u200c": "ZERO WIDTH NON-JOINER",
    "\u200d": "ZERO WIDTH JOINER",
    "\u200e": "LEFT-TO-RIGHT MARK",
    "\u200f": "RIGHT-TO-LEFT MARK",
    "\u202a": "LEFT-TO-RIGHT EMBEDDING",
    "\u202b": "RIGHT-TO-LEFT EMBEDDING",
    "\u202c": "POP DIRECTIONAL FORMATTING",
    "\u202d": "LEFT-TO-RIGHT OVERRIDE",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u2060": "WORD JOINER",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u2067": "RIGHT-TO-LEFT ISOLATE",
    "\u2068": "FIRST STRONG ISOLATE",
    "\u2069": "POP DIRECTIONAL ISOLATE",
    "\u00ad": "SOFT HYPHEN",
    "\ufeff": "ZERO WIDTH NO-BREAK SPACE",
  }),
);

/** Why `value` cannot be stored or shown as sent, or null when it can. */
function textProblem(value: string, secret: boolean): string | null {
  if (value.includes("\u0000") || !value.isWellFormed()) return "must be valid Unicode text without NUL characters";
  // A password is never displayed: any character it holds is its owner's business.
  if (secret) return null;
  const char = INVISIBLE.exec(value)?.[0] ?? /[\u200C\u200D]/u.exec(JOINER_IN_LATIN.exec(value)?.[0] ?? "")?.[0];
  if (char === undefined) return null;
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  const name = NAMES.get(char);
  return `must not contain invisible or direction-changing characters (${code}${name === undefined ? "" : ` ${name}`}): they can make one name display as another`;
}

/** Fields whose text is a secret, never shown: `password`, `current_password`, `newPassword`… */
const SECRET_FIELD = /password$/i;

/** No request this API takes nests anywhere near this deep; deeper is refused, not walked. */
const MAX_DEPTH = 32;

class TooDeep extends Error {}

function findBadText(value: unknown, path: string, depth = 0): ErrorDetail | null {
  if (typeof value === "string") {
    const issue = textProblem(value, SECRET_FIELD.test(path));
    return issue === null ? null : { field: path, issue };
  }
  if (value === null || typeof value !== "object") return null;
  if (depth >= MAX_DEPTH) throw new TooDeep(path);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findBadText(item, `${path}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const field = path === "" ? key : `${path}.${key}`;
    // Keys are user text too (`prompt_tags` is keyed by prompts).
    const keyIssue = textProblem(key, false);
    if (keyIssue !== null) return { field, issue: `(the key) ${keyIssue}` };
    const found = findBadText(item, field, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Where in `parts` there is text PostgreSQL cannot store (U+0000, unpaired surrogates) or nesting
 * deeper than any request needs, as the detail to refuse it with; null when there is none.
 */
export function unstorableTextIn(parts: unknown[]): ErrorDetail | null {
  for (const part of parts) {
    let found: ErrorDetail | null;
    try {
      found = findBadText(part, "");
    } catch (error) {
      if (!(error instanceof TooDeep)) throw error;
      // Named by its top-level field: the full path would be as long as the nesting.
      const field = error.message.split(/[.[]/)[0] || "body";
      return { field, issue: `nests deeper than ${MAX_DEPTH} levels` };
    }
    if (found !== null) return { ...found, field: found.field === "" ? "body" : found.field };
  }
  return null;
}

/**
 * PostgreSQL cannot store U+0000 or unpaired surrogates (`"\ud800"`), and no name or prompt needs
 * an invisible or direction-changing character: refuse them anywhere in a request (passwords
 * aside) as a validation error, on both dialects alike. Refused, not removed: what is stored is
 * what was sent, and the client learns which character to take out.
 */
export async function rejectUnstorableText(request: FastifyRequest): Promise<void> {
  // A raw body (log lines) is the route's to read, as a stream: its lines are checked as parsed.
  const body = request.body instanceof Readable ? undefined : request.body;
  const bad = unstorableTextIn([request.params, request.query, body]);
  if (bad !== null) throw validationError([bad]);
}
