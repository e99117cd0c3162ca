import { fold } from "../measurement/normalize.ts";
import type { FactSheet } from "../projects/types.ts";

/** One statement of an answer that contradicts the brand's fact sheet. */
export interface Contradiction {
  field: "founded_year" | "headquarters" | "starting_price" | "free_plan" | "features";
  expected: string;
  stated: string;
  excerpt: string;
}

const CURRENCIES: Record<string, string> = { $: "USD", "€": "EUR", "£": "GBP", usd: "USD", eur: "EUR", gbp: "GBP" };
const CURRENCY_WORDS: Record<string, string> = { dollars: "USD", euros: "EUR", pounds: "GBP" };

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A whole-word, case- and typography-insensitive test for any of `names`, on folded text. */
function namesTest(names: string[]): (folded: string) => boolean {
  const patterns = names
    .map(fold)
    .filter((name) => name !== "")
    .map((name) => new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegex(name)}(?:$|[^\\p{L}\\p{N}])`, "u"));
  return (folded) => patterns.some((pattern) => pattern.test(folded));
}

/** Sentences, split at their ends and at line breaks (list items are sentences too). */
function sentences(text: string): string[] {
  return text
    .replace(/\*\*|__|`/g, "")
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function priceLabel(amount: number, currency: string, period?: string): string {
  const money = Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
  return `${money} ${currency}${period === undefined || period === "once" ? "" : ` per ${period}`}`;
}

/** The prices a sentence states: `$29`, `29 USD`, `€19.99`, `49 euros`. */
function pricesIn(sentence: string): { amount: number; currency: string }[] {
  const out: { amount: number; currency: string }[] = [];
  for (const m of sentence.matchAll(/(?:US)?([$€£])\s?(\d{1,7}(?:[.,]\d{1,2})?)/g)) {
    out.push({ amount: Number((m[2] ?? "").replace(",", ".")), currency: CURRENCIES[m[1] ?? ""] ?? "" });
  }
  for (const m of sentence.matchAll(/\b(\d{1,7}(?:[.,]\d{1,2})?)\s?(USD|EUR|GBP|dollars|euros|pounds)\b/gi)) {
    const word = (m[2] ?? "").toLowerCase();
    out.push({
      amount: Number((m[1] ?? "").replace(",", ".")),
      currency: CURRENCIES[word] ?? CURRENCY_WORDS[word] ?? "",
    });
  }
  return out.filter((p) => Number.isFinite(p.amount) && p.currency !== "");
}

/**
 * What an answer states about the brand against its fact sheet: only sentences that name the
 * brand (a name or an alias) and no competitor, so that a claim is the brand's; each field once
 * per answer. Deliberately narrow: a founding year after "founded/established/launched in", a place
 * after "headquartered/based in", a price next to "start/from/cost/price/plan", a free plan denied
 * or claimed, a listed feature said to be missing. A statement the rules do not read is no
 * contradiction: this finds errors, it does not certify answers.
 */
export function contradictions(
  text: string,
  facts: FactSheet,
  brandNames: string[],
  competitorNames: string[],
): Contradiction[] {
  const isBrand = namesTest(brandNames);
  const isCompetitor = namesTest(competitorNames);
  const found = new Map<Contradiction["field"], Contradiction>();
  const add = (c: Contradiction) => {
    if (!found.has(c.field)) found.set(c.field, c);
  };
  for (const sentence of sentences(text)) {
    const folded = fold(sentence);
    if (!isBrand(folded) || isCompetitor(folded)) continue;
    const excerpt = sentence.length > 300 ? `${sentence.slice(0, 297)}…` : sentence;

    if (facts.founded_year !== undefined) {
      const m = /\b(?:founded|established|launched|started|created)\b[^.;]{0,40}?\b(1[6-9]\d\d|20\d\d)\b/i.exec(
        sentence,
      );
      if (m !== null && Number(m[1]) !== facts.founded_year)
        add({ field: "founded_year", expected: String(facts.founded_year), stated: m[1] ?? "", excerpt });
    }

    if (facts.headquarters !== undefined) {
      const m =
        /\b(?:headquartered|based|headquarters (?:is|are))\s+(?:in|out of)\s+([A-Z][\p{L}.' -]*(?:,\s*[A-Z][\p{L}.' -]*)?)/u.exec(
          sentence,
        );
      const city = fold(facts.headquarters.split(",")[0] ?? facts.headquarters);
      if (m !== null) {
        const stated = (m[1] ?? "").trim().replace(/[.\s]+$/, "");
        const statedCity = fold(stated.split(",")[0] ?? stated);
        if (statedCity !== "" && !statedCity.includes(city) && !city.includes(statedCity))
          add({ field: "headquarters", expected: facts.headquarters, stated, excerpt });
      }
    }

    if (
      facts.starting_price !== undefined &&
      /\b(?:start|starts|starting|from|cost|costs|price|priced|pricing|plans?)\b/i.test(sentence)
    ) {
      const fact = facts.starting_price;
      for (const price of pricesIn(sentence)) {
        if (price.currency !== fact.currency) continue;
        const off = fact.amount === 0 ? price.amount > 0 : Math.abs(price.amount - fact.amount) / fact.amount > 0.1;
        if (off) {
          add({
            field: "starting_price",
            expected: priceLabel(fact.amount, fact.currency, fact.period),
            stated: priceLabel(price.amount, price.currency),
            excerpt,
          });
          break;
        }
      }
    }

    if (facts.free_plan !== undefined) {
      const denies =
        /\b(?:no|doesn't (?:have|offer)|does not (?:have|offer)|lacks a|without a)\s+(?:a\s+)?free\s+(?:plan|tier|version)\b/i.test(
          sentence,
        );
      const claims =
        !denies &&
        /\b(?:offers|has|with|includes)\s+(?:a\s+)?(?:generous\s+)?free\s+(?:plan|tier|version)\b/i.test(sentence);
      if (facts.free_plan && denies)
        add({ field: "free_plan", expected: "has a free plan", stated: "no free plan", excerpt });
      if (!facts.free_plan && claims)
        add({ field: "free_plan", expected: "no free plan", stated: "a free plan", excerpt });
    }

    for (const feature of facts.features ?? []) {
      const name = escapeRegex(fold(feature));
      const missing = new RegExp(
        `\\b(?:lacks?|lacking|no|without|missing|doesn't (?:have|offer|support|include)|does not (?:have|offer|support|include)|isn't|is not)\\b[^.;]{0,40}?${name}`,
        "u",
      );
      if (missing.test(folded)) {
        add({ field: "features", expected: `has ${feature}`, stated: `no ${feature}`, excerpt });
        break;
      }
    }
  }
  return [...found.values()];
}
