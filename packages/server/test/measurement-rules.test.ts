import { describe, expect, it } from "vitest";
import { AMBIGUOUS, ambiguousNames, compileProject, measureAnswer } from "../src/services/measurement/measure.ts";
import type { MeasuredProject } from "../src/services/measurement/types.ts";

const project: MeasuredProject = {
  brand: { name: "Acme", aliases: [], domains: ["acme.com"] },
  competitors: [{ name: "Globex", aliases: [], domains: [] }],
};

describe("confidence and the ambiguous band", () => {
  it("gives every brand a confidence, 0 when never named", () => {
    const measure = measureAnswer(compileProject(project), { text: "Acme is a fine choice.", citations: [] });
    expect(measure.brand.confidence).toBeGreaterThanOrEqual(0.5);
    expect(measure.competitors[0]?.confidence).toBe(0);
    expect(measure.brand.stance).not.toBeNull();
  });

  it("lists as ambiguous only names whose confidence is in [low, high)", () => {
    const measure = measureAnswer(compileProject(project), { text: "Acme and Globex.", citations: [] });
    const brand = { ...measure.brand, confidence: AMBIGUOUS.low };
    const competitor = { name: "Globex", mentioned: false, position: null, mentions: 1, confidence: AMBIGUOUS.high };
    expect(ambiguousNames({ ...measure, brand, competitors: [competitor] })).toEqual(["Acme"]);
  });
});
