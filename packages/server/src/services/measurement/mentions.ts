import { IDIOMS } from "./idioms.ts";
import type { Language } from "./lexicon.ts";
import {
  fold,
  foldSameLength,
  maskLinks,
  matches,
  namePattern,
  namesPattern,
  normalizeTypography,
} from "./normalize.ts";
import { type Lexeme, lexeme } from "./ordinary-words.ts";
import type { BrandSpec } from "./types.ts";

/** One place where a tracked name appears. `brand` indexes the brands given to the matcher. */
export interface Occurrence {
  brand: number;
  start: number;
  end: number;
  /** Whether the name matched is an ordinary word, so that it counts only with evidence. */
  ordinary: boolean;
  /** The word is a common one (not a rare word such as "loom"), so it needs more evidence. */
  common: boolean;
  /** The word is capitalised as a word too (a German noun, "Monday"): its capital is no evidence. */
  capitalised: boolean;
  /** The name as the project spells it (its case is evidence for ordinary words). */
  spelling: string;
  /** A name of several words that are all ordinary ("New Balance"): in lower case it is the phrase. */
  phrase: boolean;
}

/** An answer as matching sees it: `text` normalised, `folded` the same length, links blanked in both. */
export interface Prepared {
  text: string;
  folded: string;
}

interface Name {
  key: string;
  brand: number;
  spelling: string;
  /** Matched with its exact case only: never an ordinary word. */
  exact: boolean;
  /** What the name is as a word, by language (worked out the first time it is needed). */
  words: Map<Language, { word: Lexeme | null; phrase: boolean }>;
}

/** What a name is as a word of the language: a single word, a phrase of ordinary words, or neither. */
function wordOf(name: Name, language: Language): { word: Lexeme | null; phrase: boolean } {
  let known = name.words.get(language);
  if (known === undefined) {
    const word = !name.exact && /^\p{L}+$/u.test(name.key) ? lexeme(name.key, language) : null;
    const phrase =
      !name.exact &&
      word === null &&
      /^[\p{L} ]+$/u.test(name.key) &&
      name.key.split(" ").every((part) => lexeme(part, language) !== null);
    known = { word, phrase };
    name.words.set(language, known);
  }
  return known;
}

function alternation(patterns: string[]): RegExp | null {
  return patterns.length === 0 ? null : new RegExp(patterns.map((p) => `(?:${p})`).join("|"), "gu");
}

/**
 * Finds every tracked name in one pass: a single alternation of all names and aliases, longest
 * first, so that at any position the longest name wins ("Acme Cloud" over "Acme"), on whole
 * tokens only (a change of script counts as a boundary), outside URLs and e-mail addresses.
 * Case-sensitive aliases are matched in a second pass over the text with its case. An occurrence
 * inside one of the project's exclusion phrases never counts; an ordinary-word name inside a
 * known collocation ("target audience") neither. Compile once per project; match many answers.
 */
export class BrandMatcher {
  readonly brands: BrandSpec[];
  readonly #pattern: RegExp | null;
  readonly #exact: RegExp | null;
  readonly #names = new Map<string, Name>();
  readonly #exclusions: RegExp | null;
  readonly #idioms: RegExp | null;

  constructor(brands: BrandSpec[], exclusions: string[] = []) {
    this.brands = brands;
    const folded: { key: string; pattern: string }[] = [];
    const exact: { key: string; pattern: string }[] = [];
    const single = new Set<string>();
    brands.forEach((brand, index) => {
      for (const name of [brand.name, ...brand.aliases]) {
        const key = fold(name);
        if (key === "" || this.#names.has(key)) continue;
        if (/^\p{L}+$/u.test(key)) single.add(key);
        const spelling = normalizeTypography(name).trim();
        this.#names.set(key, { key, brand: index, spelling, exact: false, words: new Map() });
        folded.push({ key, pattern: name });
      }
      for (const name of brand.case_sensitive_aliases ?? []) {
        const key = normalizeTypography(name).trim().replace(/\s+/g, " ");
        if (key === "" || this.#names.has(`=${key}`)) continue;
        this.#names.set(`=${key}`, { key, brand: index, spelling: key, exact: true, words: new Map() });
        exact.push({ key, pattern: name });
      }
    });
    folded.sort((a, b) => b.key.length - a.key.length);
    exact.sort((a, b) => b.key.length - a.key.length);
    this.#pattern = namesPattern(folded.map((n) => n.pattern));
    this.#exact = namesPattern(
      exact.map((n) => n.pattern),
      false,
    );
    this.#exclusions = alternation(
      exclusions
        .map((phrase) => fold(phrase))
        .filter((p) => p !== "")
        .map((p) => namePattern(p)),
    );
    const idioms = IDIOMS.filter((idiom) => [...single].some((word) => idiom.includes(word)));
    this.#idioms = idioms.length === 0 ? null : new RegExp(idioms.map((p) => `(?:${p})`).join("|"), "gu");
  }

  prepare(raw: string): Prepared {
    const text = maskLinks(normalizeTypography(raw));
    return { text, folded: foldSameLength(text) };
  }

  /**
   * The names that count (`found`), and the brands whose ordinary-word name appeared inside a
   * collocation. `language` says which language's words are ordinary (English unless given).
   */
  occurrences(prepared: Prepared, language: Language = "en"): { found: Occurrence[]; idiomatic: Set<number> } {
    const out: Occurrence[] = [];
    const push = (regex: RegExp | null, source: string, prefix: string) => {
      if (regex === null) return;
      for (const match of matches(regex, source)) {
        const name = this.#names.get(prefix + match[0].replace(/\s+/g, " "));
        if (name === undefined) continue;
        const start = match.index;
        const end = start + match[0].length;
        const { word, phrase } = wordOf(name, language);
        out.push({
          brand: name.brand,
          start,
          end,
          ordinary: word !== null,
          common: word?.common === true,
          capitalised: word?.capitalised === true,
          spelling: name.spelling,
          phrase,
        });
      }
    };
    push(this.#pattern, prepared.folded, "");
    if (this.#exact !== null) {
      push(this.#exact, prepared.text, "=");
      out.sort((a, b) => a.start - b.start);
    }
    const idiomatic = new Set<number>();
    if (out.length === 0) return { found: out, idiomatic };
    const excluded = spans(this.#exclusions, prepared.folded);
    const idioms = out.some((o) => o.ordinary) ? spans(this.#idioms, prepared.folded) : [];
    const found = out.filter((o) => {
      if (inLongerWord(prepared.text, o.start, o.end)) return false;
      if (o.ordinary && (inside(excluded, o) || inside(idioms, o))) {
        idiomatic.add(o.brand);
        return false;
      }
      return !inside(excluded, o);
    });
    return { found, idiomatic };
  }

  /** The folded ordinary-word names of the language, by brand (for evidence in the prompt). */
  ordinaryNames(language: Language = "en"): { key: string; brand: number; spelling: string }[] {
    return [...this.#names.values()].filter((n) => wordOf(n, language).word !== null);
  }
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const segmenters = {
  ja: new Intl.Segmenter("ja", { granularity: "word" }),
  zh: new Intl.Segmenter("zh", { granularity: "word" }),
};
/** After a Japanese name: used as an adjective or in a simile ("シャープに写る", "キリンのように"), so the word. */
const USED_AS_WORD = /^(?:な(?!ど)|のよう|みたい|っぽ|に(?=\p{Script=Han}))/u;

/**
 * Whether a name with a CJK edge is only part of a longer word ("小米粥", "平安夜", "海底捞针"):
 * Chinese and Japanese write no spaces, so the words around the name come from the dictionary
 * segmentation ICU ships with Node (`Intl.Segmenter`): a word that holds the whole name and more
 * swallows it. A word that only overlaps an edge does not: the segmentation does not know most
 * brands and cuts them anywhere ("伊|利和|蒙|牛").
 */
function inLongerWord(text: string, start: number, end: number): boolean {
  if (!CJK.test(text[start] ?? "") && !CJK.test(text[end - 1] ?? "")) return false;
  if (USED_AS_WORD.test(text.slice(end, end + 4))) return true;
  const from = Math.max(0, start - 6);
  const window = text.slice(from, Math.min(text.length, end + 6));
  const segmenter = KANA.test(window) ? segmenters.ja : segmenters.zh;
  for (const segment of segmenter.segment(window)) {
    const s = from + segment.index;
    const e = s + segment.segment.length;
    if (s <= start && e >= end && e - s > end - start) return true;
  }
  return false;
}

function spans(regex: RegExp | null, text: string): [number, number][] {
  if (regex === null) return [];
  return matches(regex, text).map((m) => [m.index, m.index + m[0].length]);
}

function inside(ranges: [number, number][], o: { start: number; end: number }): boolean {
  return ranges.some(([start, end]) => o.start < end && o.end > start);
}
