import { fold, maskLinks, namePattern } from "./normalize.ts";
import type { BrandSpec } from "./types.ts";

/** One place where a tracked brand is named. `brand` indexes the brands given to the matcher. */
export interface Occurrence {
  brand: number;
  start: number;
  end: number;
}

/**
 * Finds every tracked name in one pass: a single alternation of all names and aliases, longest
 * first, so that at any position the longest name wins ("Acme Cloud" over "Acme"), on whole
 * tokens only, outside URLs and e-mail addresses. Compile once per project; match many answers.
 */
export class BrandMatcher {
  readonly brands: BrandSpec[];
  readonly #pattern: RegExp | null;
  readonly #owner = new Map<string, number>();

  constructor(brands: BrandSpec[]) {
    this.brands = brands;
    const names: { key: string; pattern: string }[] = [];
    brands.forEach((brand, index) => {
      for (const name of [brand.name, ...brand.aliases]) {
        const key = fold(name).trim().replace(/\s+/g, " ");
        if (key === "" || this.#owner.has(key)) continue;
        this.#owner.set(key, index);
        names.push({ key, pattern: namePattern(name) });
      }
    });
    names.sort((a, b) => b.key.length - a.key.length);
    this.#pattern = names.length === 0 ? null : new RegExp(names.map((n) => `(?:${n.pattern})`).join("|"), "gu");
  }

  /** The text as matching sees it: folded, links blanked. Offsets of occurrences refer to it. */
  prepare(text: string): string {
    return maskLinks(fold(text));
  }

  occurrences(prepared: string): Occurrence[] {
    if (this.#pattern === null) return [];
    const out: Occurrence[] = [];
    for (const match of prepared.matchAll(this.#pattern)) {
      const key = match[0].replace(/\s+/g, " ");
      const brand = this.#owner.get(key);
      if (brand === undefined || match.index === undefined) continue;
      out.push({ brand, start: match.index, end: match.index + match[0].length });
    }
    return out;
  }
}
