import { fold, normalizeTypography } from "../measurement/normalize.ts";
import { isOrdinaryWord } from "../measurement/ordinary-words.ts";

/** Where in an answer a name was found. */
export type FoundIn = "list" | "table" | "bold" | "comparison";

export interface Candidate {
  /** As written (typography normalised, trimmed). */
  name: string;
  /** How spellings are merged: the measurement's fold (case, accents, typography, spacing). */
  key: string;
  foundIn: FoundIn;
  /** The item's place in its list (1-based), for list items only. */
  position: number | null;
}

/**
 * Words that head sections and table columns rather than name brands; an ordinary English word
 * (the measurement's list) is never a brand on its own either, so these are the rest: headings
 * and jargon that the frequency list leaves out.
 */
const GENERIC = new Set([
  "pricing",
  "pros",
  "cons",
  "conclusion",
  "summary",
  "overview",
  "verdict",
  "features",
  "alternatives",
  "integrations",
  "option",
  "options",
  "strengths",
  "weaknesses",
  "recommendation",
  "recommendations",
  "considerations",
  "tl;dr",
  "faq",
  "faqs",
  "crm",
  "saas",
  "seo",
  "api",
  "ai",
  "ui",
  "ux",
  "roi",
  "tool",
  "tools",
  "vendor",
  "vendors",
  "platform",
  "usability",
  "scalability",
  "customization",
  "onboarding",
  "g2",
  "capterra",
  "reddit",
  "wikipedia",
]);

/** A capitalised word, a domain-like name ("Monday.com") or a number ("365"). */
const TOKEN = String.raw`(?:[A-Z0-9][\w&'+-]*(?:\.[a-z]{2,}\w*)?)`;
const NAME = `${TOKEN}(?:[ ]${TOKEN}){0,3}`;
const LIST_ITEM = /^\s*(?:(\d{1,3})[.)]|[-*+•])\s+(.*)$/;
const LEADING_BOLD = /^\*\*([^*\n]{1,80})\*\*/;
const LEADING_NAME = new RegExp(`^(${NAME})(?=$|[\\s:,;(–-])`);
const BOLD = /\*\*([^*\n]{1,80})\*\*/g;
const PAIR = new RegExp(`(?<![\\w&.'+-])(${NAME})\\s+(?:vs\\.?|versus|or)\\s+(${NAME})`, "g");
const TABLE_SEPARATOR = /^\|?[\s|:-]+\|?$/;

/**
 * The name as a brand would be written, or null: 1–4 words, at most 40 characters, starting with
 * a capital or a digit, and not made only of ordinary or generic words ("Best for", "Pricing").
 */
function brandName(raw: string): string | null {
  const name = raw
    .replace(/\*\*|__|`/g, "")
    .replace(/^["'([\s]+|["')\]\s:;,.!?]+$/g, "")
    .trim()
    .replace(/\s+/g, " ");
  if (name.length < 2 || name.length > 40 || !/^[\p{Lu}\d]/u.test(name) || !/\p{L}/u.test(name)) return null;
  const words = fold(name).split(" ");
  if (words.length > 4) return null;
  if (words.every((word) => GENERIC.has(word) || isOrdinaryWord(word) || !/\p{L}/u.test(word))) return null;
  return name;
}

export function candidateOf(raw: string, foundIn: FoundIn, position: number | null = null): Candidate | null {
  const name = brandName(raw);
  return name === null ? null : { name, key: fold(name), foundIn, position };
}

/**
 * The brand-like names an answer puts forward: the leading bold or capitalised name of each list
 * item (with its place in the list), the first cell of each table row (not the header), every
 * bold name, and the pairs of names either side of "vs" or "or" (raw: the caller keeps the other
 * side of a tracked brand). Names that are the project's own are sorted out by the caller too.
 */
export function brandCandidates(text: string): { found: Candidate[]; pairs: [string, string][] } {
  const found: Candidate[] = [];
  const pairs: [string, string][] = [];
  const add = (raw: string, foundIn: FoundIn, position: number | null = null) => {
    const candidate = candidateOf(raw, foundIn, position);
    if (candidate !== null) found.push(candidate);
  };
  const lines = normalizeTypography(text).split(/\r?\n/);
  let place = 0;
  for (const [index, line] of lines.entries()) {
    const item = LIST_ITEM.exec(line);
    if (item !== null) {
      place = item[1] === undefined ? place + 1 : Number(item[1]);
      const rest = item[2] ?? "";
      const lead = LEADING_BOLD.exec(rest)?.[1] ?? LEADING_NAME.exec(rest)?.[1];
      if (lead !== undefined) add(lead, "list", place);
    } else if (line.trim() !== "") {
      place = 0;
    }
    const trimmed = line.trim();
    if (trimmed.startsWith("|") && !TABLE_SEPARATOR.test(trimmed)) {
      const next = lines[index + 1]?.trim() ?? "";
      const header = next.startsWith("|") && TABLE_SEPARATOR.test(next);
      const first = trimmed.slice(1).split("|")[0];
      if (!header && first !== undefined) add(first, "table");
    }
    for (const match of line.matchAll(BOLD)) add(match[1] ?? "", "bold");
    for (const match of line.replace(/\*\*/g, "").matchAll(PAIR)) pairs.push([match[1] ?? "", match[2] ?? ""]);
  }
  return { found, pairs };
}
