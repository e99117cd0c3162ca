import { describe, expect, it } from "vitest";
import { percent, points, position, proportion, sentimentScore, signed } from "../src/lib/figures.ts";

describe("figures", () => {
  it("gives visibility with its interval and n", () => {
    expect(proportion({ value: 0.45, n: 120, count: 54, ci_low: 0.3638, ci_high: 0.5391 })).toBe(
      "45% (36–54%, n = 120)",
    );
    expect(proportion({ value: null, n: 0, count: 0, ci_low: null, ci_high: null })).toBe("no answers (n = 0)");
  });

  it("keeps a decimal below 10% and puts the unit on every figure", () => {
    expect(percent(0.045)).toBe("4.5%");
    expect(percent(0)).toBe("0%");
    expect(percent(null)).toBe("–");
    expect(points(0.07)).toBe("+7 pts");
    expect(points(-0.031)).toBe("−3.1 pts");
    expect(points(0)).toBe("±0 pts");
    expect(signed(-0.23)).toBe("−0.2");
    expect(position(1.87)).toBe("#1.9");
    expect(sentimentScore(69.8)).toBe("69.8 / 100");
  });
});
