/**
 * The figures as people read them, in the glossary's scales: the same rules, to the character, as
 * the dashboard's (packages/web/src/lib/figures.ts), so a report, an e-mail and a screen print the
 * same number the same way. A test compares the two.
 */

const LOCALE = "en-US";
const whole = new Intl.NumberFormat(LOCALE);
const oneDecimal = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const upToOne = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });
const MINUS = "\u2212";

/** A share with its 95% interval, as the measurement computes it (the glossary imports nothing). */
interface Proportion {
  value: number | null;
  n: number;
  ci_low: number | null;
  ci_high: number | null;
}

/** 0.4512 → "45%"; below 10% one decimal ("4.5%"), since a point matters there. */
export function percent(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  const scaled = value * 100;
  const text = scaled !== 0 && Math.abs(scaled) < 10 ? oneDecimal.format(scaled) : whole.format(Math.round(scaled));
  return `${text}%`;
}

/** The interval alone: "38–52%". */
export function interval(p: Pick<Proportion, "ci_low" | "ci_high">): string {
  if (p.ci_low === null || p.ci_high === null) return "no interval";
  return `${percent(p.ci_low).replace("%", "")}–${percent(p.ci_high)}`;
}

/** "n = 120". */
export function sampleSize(n: number): string {
  return `n = ${whole.format(n)}`;
}

/** "45% (38–52%, n = 120)"; "no answers (n = 0)" when there is nothing to measure. */
export function proportion(p: Proportion): string {
  if (p.n === 0 || p.value === null) return "no answers (n = 0)";
  return `${percent(p.value)} (${interval(p)}, ${sampleSize(p.n)})`;
}

/** Percentage points between two shares: 0.07 → "+7 pts", -0.031 → "−3.1 pts". */
export function points(delta: number | null | undefined): string {
  if (delta === null || delta === undefined) return "–";
  const scaled = delta * 100;
  const rounded = Math.abs(scaled) < 10 ? Math.round(scaled * 10) / 10 : Math.round(scaled);
  if (rounded === 0) return "±0 pts";
  return `${rounded > 0 ? "+" : MINUS}${whole.format(Math.abs(rounded))} pts`;
}

/** A signed plain number: 2.14 → "+2.1", -0.23 → "−0.2". */
export function signed(delta: number | null | undefined, digits = 1): string {
  if (delta === null || delta === undefined) return "–";
  const factor = 10 ** digits;
  const rounded = Math.round(delta * factor) / factor;
  if (rounded === 0) return "±0";
  const text = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: digits }).format(Math.abs(rounded));
  return `${rounded > 0 ? "+" : MINUS}${text}`;
}

/** Average rank among the tracked brands named: "#1.9" (1 = named first). */
export function position(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return `#${upToOne.format(value)}`;
}

/** Sentiment on its 0–100 scale: "69.8 / 100". */
export function sentiment(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return `${oneDecimal.format(value)} / 100`;
}

/** One answer's polarity (−1 to +1, the API's `sentiment`) on the 0–100 scale people read. */
export function sentimentFromPolarity(polarity: number | null | undefined): number | null {
  return polarity === null || polarity === undefined ? null : Math.round((50 + 50 * polarity) * 10) / 10;
}

/** One answer's sentiment as a word and its score: "positive (75.0 / 100)". */
export function sentimentWord(polarity: number | null | undefined): string {
  const value = sentimentFromPolarity(polarity);
  if (value === null) return "–";
  const word = value > 57.5 ? "positive" : value < 42.5 ? "negative" : "neutral";
  return `${word} (${sentiment(value)})`;
}

/** 0–100 visibility score: "43.1 / 100". */
export function score(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return `${oneDecimal.format(value)} / 100`;
}

const dollars = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD" });
const cents = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD", maximumSignificantDigits: 2 });

/** "$12.40"; amounts under a cent keep two significant digits ("$0.0042"), so that one answer's cost shows. */
export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return value > 0 && value < 0.01 ? cents.format(value) : dollars.format(value);
}
