import { describe, expect, it } from "vitest";
import { planAnswers, smallestEffect } from "../../src/services/experiments/plan.ts";

describe("the sample plan", () => {
  it("finds the smallest effect a number of answers can show, the inverse of the answers an effect needs", () => {
    for (const [treated, control] of [
      [2, 2],
      [3, 4],
      [10, 10],
    ] as const) {
      for (const answers of [20, 50, 200]) {
        const effect = smallestEffect({ treatedPrompts: treated, controlPrompts: control, answers, baseRate: 0.3 });
        const plan = planAnswers({ treatedPrompts: treated, controlPrompts: control, effect, baseRate: 0.3 });
        // Rounding up to whole answers: the plan asks exactly these answers, or one more.
        expect(plan.answers).not.toBeNull();
        expect(Math.abs((plan.answers ?? 0) - answers)).toBeLessThanOrEqual(1);
        // A smaller effect needs more answers.
        const harder = planAnswers({
          treatedPrompts: treated,
          controlPrompts: control,
          effect: effect * 0.9,
          baseRate: 0.3,
        });
        expect(harder.answers === null || (harder.answers ?? 0) > answers).toBe(true);
      }
    }
  });

  it("says more prompts are needed when no number of answers is enough", () => {
    expect(planAnswers({ treatedPrompts: 2, controlPrompts: 2, effect: 0.1 }).answers).toBeNull();
    // Two a side can still show 60 points with 50 answers each.
    expect(smallestEffect({ treatedPrompts: 2, controlPrompts: 2, answers: 50 })).toBeCloseTo(0.6, 2);
  });
});
