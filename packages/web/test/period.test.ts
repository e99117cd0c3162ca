import { describe, expect, it } from "vitest";
import { parseBrandSearch, periodQuery, resolvePeriod, sharedFilters } from "../src/lib/period.ts";

const now = new Date("2026-11-23T15:30:00Z");

describe("period", () => {
  it("reads the shared filters from the URL, dropping what is malformed", () => {
    expect(parseBrandSearch({ days: "7", engine: "chatgpt" })).toEqual({ days: 7, engine: "chatgpt" });
    expect(parseBrandSearch({ days: "12", engine: "<script>" })).toEqual({});
    expect(parseBrandSearch({ from: "2026-11-01", to: "2026-11-15", days: "7" })).toEqual({
      from: "2026-11-01",
      to: "2026-11-15",
    });
    expect(parseBrandSearch({ from: "2026-11-15", to: "2026-11-01" })).toEqual({});
    expect(parseBrandSearch({ from: "2020-01-01", to: "2026-01-01" })).toEqual({});
    // A prompt tag as the API stores it: lower-case and trimmed; a malformed one is dropped.
    expect(parseBrandSearch({ tag: " Persona:CTO " })).toEqual({ tag: "persona:cto" });
    expect(parseBrandSearch({ tag: "no!" })).toEqual({});
    expect(parseBrandSearch({ tag: "x".repeat(41) })).toEqual({});
  });

  it("counts the last N days with today included, as whole UTC days [from, to)", () => {
    const period = resolvePeriod({ days: 7 }, now);
    expect(period.from).toBe("2026-11-17T00:00:00.000Z");
    expect(period.to).toBe("2026-11-24T00:00:00.000Z");
    expect(period.days).toBe(7);
    expect(period.label).toBe("Last 7 days");
    expect(period.interval).toBe("day");
    expect(resolvePeriod({}, now).days).toBe(30);
    expect(resolvePeriod({ days: 90 }, now).interval).toBe("week");
  });

  it("includes both ends of a custom range", () => {
    const period = resolvePeriod({ from: "2026-11-01", to: "2026-11-15" }, now);
    expect(period.from).toBe("2026-11-01T00:00:00.000Z");
    expect(period.to).toBe("2026-11-16T00:00:00.000Z");
    expect(period.days).toBe(15);
    expect(period.custom).toBe(true);
    expect(resolvePeriod({ from: "2026-01-01", to: "2026-11-01" }, now).interval).toBe("month");
  });

  it("carries only the shared filters between pages, and sends them to the API", () => {
    expect(sharedFilters({ days: 7, engine: "claude", prompt: "x" } as never)).toEqual({ days: 7, engine: "claude" });
    expect(sharedFilters({ tag: "funnel:awareness", prompt: "x" } as never)).toEqual({ tag: "funnel:awareness" });
    const tagged = periodQuery(resolvePeriod({ days: 7, tag: "persona:cto" }, now), undefined);
    expect(tagged.tag).toBe("persona:cto");
    expect(resolvePeriod({ days: 7 }, now)).not.toHaveProperty("tag");
    expect(periodQuery(resolvePeriod({ days: 7 }, now), "claude")).toEqual({
      from: "2026-11-17T00:00:00.000Z",
      to: "2026-11-24T00:00:00.000Z",
      engine: "claude",
    });
  });
});
