import { percent, points, proportion } from "../glossary/format.ts";
import { GLOSSARY } from "../glossary/metrics.ts";
import { compareIntervals, type Proportion } from "../measurement/aggregate.ts";

/**
 * The figures of alerts and digests (e-mail, Slack) in the glossary's names and formats, as the
 * dashboard and the reports print them.
 */

/** "Visibility 31% (24–39%, n = 150)": every visibility figure with its interval and n. */
export function visibilityFigure(visibility: Proportion): string {
  return `${GLOSSARY.visibility.name} ${proportion(visibility)}`;
}

/**
 * The change of visibility against an earlier figure, in points, and whether it is statistically
 * real (the two 95% intervals do not overlap), e.g. "−12 pts since the previous run (from 43%):
 * statistically real, the two 95% intervals do not overlap".
 */
export function visibilityChange(now: Proportion, before: Proportion | null, since: string): string {
  if (before === null || before.value === null || now.value === null)
    return `No ${since.replace(/^the /, "")} to compare with.`;
  const real =
    compareIntervals(now, before) === "overlap"
      ? "not statistically significant, the two 95% intervals overlap"
      : "statistically real, the two 95% intervals do not overlap";
  return `${points(now.value - before.value)} since ${since} (from ${percent(before.value)}): ${real}.`;
}
