/**
 * Finds the brand's and its competitors' names in an answer, to highlight them: case-insensitive, whole
 * words only (not inside a longer word), any of a brand's names or aliases. This is the reader's aid; the
 * measurement itself is the server's (DESIGN.md §3, §7), so a highlight never changes a figure.
 */

type MentionKind = "brand" | "competitor";

export interface NameGroup {
  kind: MentionKind;
  /** The brand's display name, the legend's entry. */
  name: string;
  /** The name and its aliases. */
  terms: readonly string[];
}

export interface Segment {
  text: string;
  /** Set on the parts that name a tracked brand. */
  mention?: { kind: MentionKind; name: string };
}

function escapeRegExp(term: string): string {
  return term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One pattern for every name; the longest names first, so "Acme CRM" wins over "Acme". */
function mentionPattern(groups: readonly NameGroup[]): { pattern: RegExp; owner: Map<string, NameGroup> } | null {
  const owner = new Map<string, NameGroup>();
  for (const group of groups) {
    for (const raw of [group.name, ...group.terms]) {
      const term = raw.trim();
      // The brand's own names take precedence over a competitor's alias that happens to be the same.
      if (term.length > 0 && !owner.has(term.toLocaleLowerCase())) owner.set(term.toLocaleLowerCase(), group);
    }
  }
  if (owner.size === 0) return null;
  const alternatives = [...owner.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return {
    pattern: new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join("|")})(?![\\p{L}\\p{N}_])`, "giu"),
    owner,
  };
}

/** The text cut into plain parts and named parts. */
export function splitMentions(text: string, groups: readonly NameGroup[]): Segment[] {
  const compiled = mentionPattern(groups);
  if (!compiled) return [{ text }];
  const segments: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(compiled.pattern)) {
    const index = match.index ?? 0;
    const group = compiled.owner.get(match[0].toLocaleLowerCase());
    if (!group) continue;
    if (index > last) segments.push({ text: text.slice(last, index) });
    segments.push({ text: match[0], mention: { kind: group.kind, name: group.name } });
    last = index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}

/** A tracked name's place in an answer as the server measured it: UTF-16 offsets into the text. */
export interface MentionAt {
  name: string;
  /** The brand itself, or one of its competitors. */
  brand: boolean;
  start: number;
  end: number;
}

/**
 * Private-use characters that mark, in an answer's raw text, where a highlight opens (the brand's
 * or a competitor's) and where it closes: they pass through Markdown untouched, and the rendered
 * text is cut at them (lib/markdown.ts).
 */
export const MARKS = { brand: "\uE000", competitor: "\uE001", end: "\uE002" } as const;
export const MARK_PATTERN = /[\uE000-\uE002]/;

/** Web addresses and Markdown link targets: a name inside one is part of an address, not of the prose. */
function addressSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const match of text.matchAll(
    /\]\([^)\s]*\)|<[^>\s]+>|(?:https?:\/\/|www\.)[^\s<>()]+|[\w.-]+@[\w-]+\.[\w.-]+/gi,
  )) {
    const start = match.index ?? 0;
    spans.push([start, start + match[0].length]);
  }
  return spans;
}

/**
 * The answer's text with each measured name wrapped in `MARKS`, to render it with the names
 * highlighted where the server found them. Names inside addresses are left as they are (a marker
 * would break the link), as are offsets that do not fit the text or overlap an earlier name. Marker
 * characters already in the text become U+FFFD, so that the offsets still hold.
 */
export function markMentions(text: string, mentions: readonly MentionAt[]): string {
  const clean = text.replace(/[\uE000-\uE002]/g, "\uFFFD");
  const addresses = addressSpans(clean);
  const ordered = [...mentions].sort((a, b) => a.start - b.start);
  let out = "";
  let last = 0;
  for (const mention of ordered) {
    const { start, end } = mention;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < last || end <= start || end > clean.length)
      continue;
    if (addresses.some(([from, to]) => start < to && end > from)) continue;
    out += clean.slice(last, start);
    out += (mention.brand ? MARKS.brand : MARKS.competitor) + clean.slice(start, end) + MARKS.end;
    last = end;
  }
  return out + clean.slice(last);
}
