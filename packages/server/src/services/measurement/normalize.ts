import { ownValue } from "../../lib/own-keys.ts";

/**
 * Text as the measurement reads it. `normalizeTypography` rewrites what differs only in typography
 * (entities, curly quotes, Unicode hyphens and spaces, full-width forms) so that "L’Oréal",
 * "AT&amp;T" and "Ｔｅｓｌａ" match their names; `foldSameLength` then lowers case and drops
 * accents one character for one, so offsets found in the folded text are offsets in the
 * normalised text too (case is evidence for ordinary-word names). Offsets never refer to the raw
 * answer: everything downstream (lines, clauses, sentiment) reads the normalised text.
 */

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  rsquo: "'",
  lsquo: "'",
  rdquo: '"',
  ldquo: '"',
  ndash: "-",
  mdash: "-",
  hellip: "...",
  eacute: "é",
  egrave: "è",
  agrave: "à",
  ccedil: "ç",
  uuml: "ü",
  ouml: "ö",
  auml: "ä",
  szlig: "ß",
  ntilde: "ñ",
};

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));/g;
const QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u02BC\uFF07]|[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g;
const HYPHENS = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;
const SPACES = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;
const NON_ASCII = /[\u0080-\uFFFF]/;

function decodeEntity(match: string, decimal?: string, hex?: string, name?: string): string {
  if (decimal !== undefined || hex !== undefined) {
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? "", 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
  }
  return ownValue(ENTITIES, (name ?? "").toLowerCase()) ?? match;
}

export function normalizeTypography(text: string): string {
  let out = text.includes("&") ? text.replace(ENTITY, decodeEntity) : text;
  if (!NON_ASCII.test(out)) return out;
  out = out.normalize("NFKC");
  return out
    .replace(QUOTES, (q) => ("\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB".includes(q) ? '"' : "'"))
    .replace(HYPHENS, "-")
    .replace(SPACES, " ")
    .replace(INVISIBLE, "");
}

function foldChar(char: string): string {
  // Kana keep their voicing marks: "ず" is not "す" (Japanese negation reads differently).
  if (char >= "\u3040" && char <= "\u30FF") return char;
  const base = char.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  if (base.length === char.length) return base;
  const lower = char.toLowerCase();
  return lower.length === char.length ? lower : char;
}

/** Lower case without accents, one UTF-16 unit for one, so offsets carry over. */
export function foldSameLength(text: string): string {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(text)) return lower;
  return text.replace(/[\u0080-\uFFFF]/g, foldChar).replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** A name or phrase compared as the text is: typography normalised, then folded, spaces collapsed. */
export function fold(text: string): string {
  return foldSameLength(normalizeTypography(text)).trim().replace(/\s+/g, " ");
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const CJK = "\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}";
const KATAKANA = "\\p{sc=Katakana}\\u30FC";

/**
 * The boundary on one side of a name, by the script of the name's character on that side: a
 * Latin (or other spaced-script) edge must not touch a letter or digit of a spaced script, but may
 * touch CJK ("Hyundaiです"); a katakana edge must not run on into more katakana ("アップルパイ");
 * a Han or Hangul edge needs no boundary, since those scripts are written without spaces.
 */
function edge(char: string, side: "before" | "after"): string {
  const look = side === "before" ? "?<!" : "?!";
  if (/[\p{sc=Katakana}\u30FC]/u.test(char)) return `(${look}[${KATAKANA}])`;
  if (new RegExp(`[${CJK}]`, "u").test(char)) return "";
  return `(${look}(?![${CJK}])[\\p{L}\\p{N}])`;
}

/** A name as a pattern for the text it is compared with: whole tokens only, any run of spaces inside. */
export function namePattern(name: string, folded = true): string {
  const { before, body, after } = nameParts(name, folded);
  return `${before}${body}${after}`;
}

/** A name's pattern in three parts: its boundaries (by the script at each edge) and its body. */
function nameParts(name: string, folded = true): { before: string; body: string; after: string } {
  const source = folded ? fold(name) : normalizeTypography(name).trim().replace(/\s+/g, " ");
  const parts = source.split(" ").map(escapeRegex);
  const first = source[0] ?? "";
  const last = source[source.length - 1] ?? "";
  return { before: edge(first, "before"), body: parts.join("\\s+"), after: edge(last, "after") };
}

/**
 * Many names as one pattern, longest first. Names with the same boundaries (most names: Latin at
 * both ends) share them, so the boundary is checked once per position rather than once per name.
 */
export function namesPattern(names: string[], folded = true): RegExp | null {
  if (names.length === 0) return null;
  const groups = new Map<string, { before: string; after: string; bodies: { body: string; length: number }[] }>();
  for (const name of names) {
    const { before, body, after } = nameParts(name, folded);
    const key = `${before}\u0000${after}`;
    const group = groups.get(key) ?? { before, after, bodies: [] };
    group.bodies.push({ body, length: (folded ? fold(name) : name).length });
    groups.set(key, group);
  }
  const alternatives = [...groups.values()].map((group) => {
    const bodies = group.bodies.sort((a, b) => b.length - a.length).map((b) => b.body);
    return `${group.before}(?:${bodies.join("|")})${group.after}`;
  });
  return new RegExp(alternatives.map((a) => `(?:${a})`).join("|"), "gu");
}

// URLs with a scheme, the paths of bare domains ("hubspot.com/pricing" names HubSpot, not
// "example.com/notion" Notion), and e-mail addresses. Each pattern starts only where a token
// starts, so matching stays linear.
const URL = /(?<![\w.-])https?:\/\/[^\s)>\]"']*/g;
const HOST_BEFORE = /(?:^|[^\w.-])(?:[\w-]+\.)+[a-zA-Z]{2,}$/;
const PATH_AFTER = /^[^\s)>\]"']*/;

/** Blanks the path after each bare host ("hubspot.com/pricing" keeps "hubspot.com"); looks only at "/". */
function maskPaths(text: string): string {
  let out = text;
  let at = out.indexOf("/");
  while (at >= 0) {
    let end = at + 1;
    if (HOST_BEFORE.test(out.slice(Math.max(0, at - 80), at))) {
      end = at + (PATH_AFTER.exec(out.slice(at))?.[0].length ?? 1);
      out = out.slice(0, at) + " ".repeat(end - at) + out.slice(end);
    }
    at = out.indexOf("/", end);
  }
  return out;
}
const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;

const blank = (match: string) => " ".repeat(match.length);

/** Blanks out URLs and e-mail addresses (same length), so names inside them do not count. */
export function maskLinks(text: string): string {
  let out = text;
  if (text.includes("/")) {
    out = maskPaths(out.replace(URL, blank));
  }
  if (out.includes("@")) out = out.replace(EMAIL, blank);
  return out;
}

/**
 * All matches of a global pattern. Unlike `String.prototype.matchAll`, which clones the pattern on
 * every call (recompiling a large alternation costs microseconds each time), this reuses it.
 */
export function matches(pattern: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  pattern.lastIndex = 0;
  let match = pattern.exec(text);
  while (match !== null) {
    out.push(match);
    if (match[0] === "") pattern.lastIndex++;
    match = pattern.exec(text);
  }
  return out;
}
