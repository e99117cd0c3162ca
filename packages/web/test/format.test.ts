import { describe, expect, it } from "vitest";
import { engineName, formatRelative, planName, plural } from "../src/lib/format.ts";

describe("format", () => {
  it("puts the unit with the number, singular or plural", () => {
    expect(plural(1, "credit")).toBe("1 credit");
    expect(plural(0, "credit")).toBe("0 credits");
    expect(plural(2, "brand", "brands")).toBe("2 brands");
  });

  it("says how long ago in words", () => {
    const now = new Date("2027-11-23T12:00:00Z");
    expect(formatRelative("2027-11-23T11:59:30Z", now)).toBe("just now");
    expect(formatRelative("2027-11-23T11:00:00Z", now)).toMatch(/hour/);
    expect(formatRelative("2027-11-22T12:00:00Z", now)).toMatch(/yesterday|1 day/);
  });

  it("names plans and engines as people know them", () => {
    expect(planName("growth")).toBe("Growth");
    expect(engineName("google_ai_overview")).toBe("Google AI Overviews");
    expect(engineName("my_llama")).toBe("My llama");
  });
});
