import { afterAll, describe, expect, it } from "vitest";
import * as server from "../../server/src/services/glossary/format.ts";

/**
 * The dashboard (src/lib/figures.ts) and the server's reports, e-mails and alerts
 * (services/glossary/format.ts) print every figure with the same rules, to the character (issue 24:
 * one name, one scale). The dashboard formats in its reader's locale and the server in en-US, so
 * they are compared in en-US whatever this machine's locale: the dashboard's module is loaded with
 * en-US as the default locale of Intl.NumberFormat (Node reads its own only once, at start-up).
 */
const NativeNumberFormat = Intl.NumberFormat;
Intl.NumberFormat = new Proxy(NativeNumberFormat, {
  construct: (target, [locales, options]) => new target(locales ?? "en-US", options),
  apply: (target, _self, [locales, options]) => target(locales ?? "en-US", options),
});
const web = await import("../src/lib/figures.ts");
const { formatUsd } = await import("../src/lib/format.ts");

afterAll(() => {
  Intl.NumberFormat = NativeNumberFormat;
});

/** A fixed-seed generator (mulberry32): the same values on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every step of `step` from `from` to `to`, and `count` random values between them. */
function values(from: number, to: number, step: number, count: number, seed: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to + 1e-12; v += step) out.push(Math.round(v * 1e9) / 1e9);
  const next = random(seed);
  for (let i = 0; i < count; i++) out.push(from + (to - from) * next());
  return out;
}

/** The rounding edges: halves at one decimal and whole numbers, and the 10% boundary of `percent`. */
const EDGES = [0, 0.0995, 0.09949, 0.0995001, 0.1, 0.10049, 0.1005, 0.00049, 0.0005, 0.005, 0.015, 0.025, 0.995];
const MISSING = [null, undefined];

describe("the dashboard and the server print the same figures", () => {
  it("prints shares as percentages alike", () => {
    const shares = [...values(-0.2, 1.2, 0.0005, 2000, 1), ...EDGES, ...EDGES.map((v) => -v), 12.345, 1234.5, NaN];
    for (const value of [...shares, ...MISSING]) expect(web.percent(value), String(value)).toBe(server.percent(value));
  });

  it("prints intervals, sample sizes and proportions alike", () => {
    const next = random(2);
    const proportions = Array.from({ length: 3000 }, (_, i) => {
      const n = i < 20 ? i : Math.floor(next() ** 3 * 25_000);
      const count = Math.floor(next() * (n + 1));
      const low = n === 0 ? null : Math.max(0, count / n - next() * 0.2);
      const high = n === 0 ? null : Math.min(1, count / n + next() * 0.2);
      return { value: n === 0 ? null : count / n, n, count, ci_low: low, ci_high: high };
    });
    proportions.push({ value: 0.5, n: 10, count: 5, ci_low: null, ci_high: null });
    for (const p of proportions) {
      expect(web.interval(p), JSON.stringify(p)).toBe(server.interval(p));
      expect(web.sampleSize(p.n)).toBe(server.sampleSize(p.n));
      expect(web.proportion(p), JSON.stringify(p)).toBe(server.proportion(p));
    }
  });

  it("prints changes in points and signed numbers alike", () => {
    const deltas = [...values(-1, 1, 0.0005, 2000, 3), ...EDGES, ...EDGES.map((v) => -v), -0.0004, 0.00049];
    for (const delta of [...deltas, ...MISSING]) expect(web.points(delta), String(delta)).toBe(server.points(delta));
    const numbers = [...values(-120, 120, 0.25, 1000, 4), 1234.56, -98_765.4, 0.04, -0.04, 0.05, -0.05];
    for (const digits of [0, 1, 2, 3]) {
      for (const value of [...numbers, ...MISSING]) {
        expect(web.signed(value, digits), `${value}, ${digits} digits`).toBe(server.signed(value, digits));
      }
    }
    for (const value of numbers) expect(web.signed(value), String(value)).toBe(server.signed(value));
  });

  it("prints positions, sentiment and visibility scores alike", () => {
    for (const value of [...values(1, 15, 0.01, 500, 5), 1234.56, ...MISSING]) {
      expect(web.position(value), String(value)).toBe(server.position(value));
    }
    for (const value of [...values(0, 100, 0.01, 2000, 6), 42.45, 57.55, 99.95, ...MISSING]) {
      expect(web.sentimentScore(value), String(value)).toBe(server.sentiment(value));
      expect(web.score(value), String(value)).toBe(server.score(value));
    }
  });

  it("puts an answer's polarity on the 0–100 scale with the same word", () => {
    const polarities = [...values(-1, 1, 0.0005, 2000, 7), -0.15, 0.15, -0.1501, 0.1501, -0.149, 0.149, ...MISSING];
    for (const polarity of polarities) {
      expect(web.sentimentFromPolarity(polarity), String(polarity)).toBe(server.sentimentFromPolarity(polarity));
      expect(web.sentimentWord(polarity), String(polarity)).toBe(server.sentimentWord(polarity));
    }
    // The scale and the words themselves, so that both cannot drift away together.
    expect(web.sentimentWord(0.5)).toBe("positive (75.0 / 100)");
    expect(web.sentimentWord(-0.2)).toBe("negative (40.0 / 100)");
    expect(web.sentimentWord(0)).toBe("neutral (50.0 / 100)");
    expect(web.sentimentWord(0.15)).toBe("neutral (57.5 / 100)");
    expect(web.sentimentWord(0.152)).toBe("positive (57.6 / 100)");
    expect(web.sentimentWord(-1)).toBe("negative (0.0 / 100)");
    expect(web.sentimentWord(null)).toBe("–");
  });

  it("prints costs in dollars alike", () => {
    const costs = [0, 0.0042, 0.00999, 0.01, 0.005, 0.000123, 1, 12.4, 1234.567, ...values(0, 50, 0.01, 500, 8)];
    for (const cost of costs) expect(formatUsd(cost), String(cost)).toBe(server.usd(cost));
  });
});
