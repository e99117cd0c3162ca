import { compareIntervals, type Proportion } from "../measurement/aggregate.ts";

const MINUS = "\u2212";

function pct(value: number | null, digits = 1): string {
  return value === null ? "n/a" : `${(value * 100).toFixed(digits)}%`;
}

/** "Visibility 31.0% (95% CI 24.1–38.9%, n = 150)": every visibility figure with its interval and n. */
export function visibilityFigure(visibility: Proportion): string {
  if (visibility.value === null || visibility.n === 0) return "Visibility n/a (no answers)";
  const interval =
    visibility.ci_low === null || visibility.ci_high === null
      ? ""
      : `95% CI ${(visibility.ci_low * 100).toFixed(1)}–${(visibility.ci_high * 100).toFixed(1)}%, `;
  return `Visibility ${pct(visibility.value)} (${interval}n = ${visibility.n})`;
}

/**
 * The change of visibility against an earlier figure, in points, and whether it is statistically
 * real (the two 95% intervals do not overlap), e.g. "−12.0 points since the previous run (from
 * 43.0%): statistically real, the two 95% intervals do not overlap".
 */
export function visibilityChange(now: Proportion, before: Proportion | null, since: string): string {
  if (before === null || before.value === null || now.value === null)
    return `No ${since.replace(/^the /, "")} to compare with.`;
  const points = (now.value - before.value) * 100;
  const rounded = Math.round(points * 10) / 10;
  const signed = rounded === 0 ? "0.0" : `${rounded > 0 ? "+" : MINUS}${Math.abs(rounded).toFixed(1)}`;
  const real =
    compareIntervals(now, before) === "overlap"
      ? "not statistically significant, the two 95% intervals overlap"
      : "statistically real, the two 95% intervals do not overlap";
  return `${signed} points since ${since} (from ${pct(before.value)}): ${real}.`;
}

export { pct };
