import type { Static } from "typebox";
import type { ServiceContext } from "../context.ts";
import type { LeaderboardSchema } from "./schemas.ts";

type Leaderboard = Static<typeof LeaderboardSchema>;
type Standing = Leaderboard["data"][number]["previous"];

import { compareIntervals } from "../measurement/aggregate.ts";
import { getProject } from "../projects/projects.ts";
import type { Slice } from "./figures.ts";
import { periodOf, previousOf } from "./period.ts";
import { checkFilters, type Filters, inPeriod, scopeOf, sumRollups, Tally } from "./tally.ts";

function standings(
  brandName: string,
  current: Slice,
): (Standing & { name: string; is_brand: boolean; mentioned: number })[] {
  return [
    {
      name: brandName,
      is_brand: true,
      mentioned: current.counts.mentioned,
      visibility: current.figures.visibility,
      share_of_voice: current.figures.share_of_voice,
      average_position: current.figures.average_position,
    },
    ...current.competitors.map((c) => ({ ...c, is_brand: false })),
  ];
}

const delta = (a: number | null, b: number | null) =>
  a === null || b === null ? null : Math.round((a - b) * 10_000) / 10_000;

/** The brand and its competitors ranked by visibility, each against the period before. */
export async function competitorLeaderboard(
  ctx: ServiceContext,
  projectId: string,
  input: Filters & { from?: string; to?: string },
): Promise<Leaderboard> {
  await checkFilters(ctx, input);
  const project = await getProject(ctx, projectId);
  const period = periodOf(input, ctx.clock);
  const previous = previousOf(period);
  const rows = await sumRollups(
    ctx,
    projectId,
    { fromDay: previous.fromDay, toDay: period.toDay },
    scopeOf(project, input),
    ["day", "subject"],
  );
  const now = new Tally();
  const then = new Tally();
  for (const row of rows) (inPeriod(row, period) ? now : then).add(row);
  const names = project.competitors.map((c) => c.name);
  const before = new Map(standings(project.name, then.slice(names)).map((s) => [s.name, s]));
  return {
    object: "competitor_leaderboard",
    from: period.from,
    to: period.to,
    previous: { from: previous.from, to: previous.to },
    data: standings(project.name, now.slice(names))
      .map((current) => {
        const past = before.get(current.name) ?? current;
        return {
          ...current,
          previous: {
            visibility: past.visibility,
            share_of_voice: past.share_of_voice,
            average_position: past.average_position,
          },
          change: {
            visibility: delta(current.visibility.value, past.visibility.value),
            share_of_voice: delta(current.share_of_voice, past.share_of_voice),
            average_position: delta(current.average_position, past.average_position),
            significant: compareIntervals(current.visibility, past.visibility) !== "overlap",
          },
        };
      })
      .sort((a, b) => (b.visibility.value ?? -1) - (a.visibility.value ?? -1) || a.name.localeCompare(b.name)),
  };
}
