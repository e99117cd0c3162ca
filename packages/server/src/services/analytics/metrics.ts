import type { Static } from "typebox";
import type { ServiceContext } from "../context.ts";
import { getProject } from "../projects/projects.ts";
import { change, type Slice } from "./figures.ts";
import type { ProjectMetricsSchema } from "./schemas.ts";

export type ProjectMetrics = Static<typeof ProjectMetricsSchema>;

import { bucketOf, bucketsOf, type Interval, periodOf, previousOf } from "./period.ts";
import { checkFilters, type Filters, inPeriod, scopeOf, sumRollups, Tally } from "./tally.ts";

export interface MetricsInput extends Filters {
  from?: string;
  to?: string;
  interval?: Interval;
}

interface BySlice {
  overall: Slice;
  by_engine: Record<string, Slice>;
}

/** Tallies overall and per engine. */
class Split {
  readonly overall = new Tally();
  readonly engines = new Map<string, Tally>();

  add(row: Parameters<Tally["add"]>[0]): void {
    this.overall.add(row);
    let engine = this.engines.get(row.engine);
    if (engine === undefined) {
      engine = new Tally();
      this.engines.set(row.engine, engine);
    }
    engine.add(row);
  }

  slices(names: readonly string[], engines: readonly string[]): BySlice {
    return {
      overall: this.overall.slice(names),
      by_engine: Object.fromEntries(
        engines.map((engine) => [engine, (this.engines.get(engine) ?? new Tally()).slice(names)]),
      ),
    };
  }
}

/**
 * The brand's figures over time, overall and per engine, with the period before for comparison:
 * one query over the rollups of both periods, summed per day, engine and subject.
 */
export async function projectMetrics(
  ctx: ServiceContext,
  projectId: string,
  input: MetricsInput,
): Promise<ProjectMetrics> {
  await checkFilters(ctx, input);
  const project = await getProject(ctx, projectId);
  const interval = input.interval ?? "day";
  const period = periodOf(input, ctx.clock);
  const previous = previousOf(period);
  const rows = await sumRollups(
    ctx,
    projectId,
    { fromDay: previous.fromDay, toDay: period.toDay },
    scopeOf(project, input),
    ["day", "engine", "subject"],
  );
  const names = project.competitors.map((c) => c.name);
  const total = new Split();
  const before = new Tally();
  const buckets = new Map<string, Split>();
  for (const row of rows) {
    if (!inPeriod(row, period)) {
      before.add(row);
      continue;
    }
    total.add(row);
    const key = bucketOf(row.day, interval);
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = new Split();
      buckets.set(key, bucket);
    }
    bucket.add(row);
  }
  const engines = [...total.engines.keys()].sort();
  const now = total.overall.slice(names);
  const then = before.slice(names);
  return {
    object: "project_metrics",
    project_id: project.id,
    from: period.from,
    to: period.to,
    interval,
    engines,
    total: total.slices(names, engines),
    series: bucketsOf(period, interval).map(({ key, start, end }) => ({
      start,
      end,
      ...(buckets.get(key) ?? new Split()).slices(names, engines),
    })),
    previous: { from: previous.from, to: previous.to, overall: then },
    changes: {
      visibility: change(now.figures.visibility.value, then.figures.visibility.value, [
        now.figures.visibility,
        then.figures.visibility,
      ]),
      share_of_voice: change(now.figures.share_of_voice, then.figures.share_of_voice),
      average_position: change(now.figures.average_position, then.figures.average_position),
      sentiment_score: change(now.figures.sentiment_score, then.figures.sentiment_score),
      citation_rate: change(now.figures.citation_rate.value, then.figures.citation_rate.value, [
        now.figures.citation_rate,
        then.figures.citation_rate,
      ]),
      visibility_score: change(now.figures.visibility_score, then.figures.visibility_score),
    },
  };
}
