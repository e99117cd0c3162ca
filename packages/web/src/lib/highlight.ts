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
