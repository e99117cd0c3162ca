import type { Static } from "typebox";
import type { ServiceContext } from "../context.ts";
import { getProject } from "../projects/projects.ts";
import type { PromptMetricsSchema } from "./schemas.ts";

type PromptMetrics = Static<typeof PromptMetricsSchema>;

import { periodOf } from "./period.ts";
import { checkFilters, type Filters, scopeOf, sumRollups, Tally } from "./tally.ts";

/** Each prompt × engine with answers in the period: the heat map's cells. */
export async function promptMetrics(
  ctx: ServiceContext,
  projectId: string,
  input: Filters & { from?: string; to?: string },
): Promise<PromptMetrics> {
  await checkFilters(ctx, input);
  const project = await getProject(ctx, projectId);
  const period = periodOf(input, ctx.clock);
  const rows = await sumRollups(ctx, projectId, period, scopeOf(project, input), ["prompt", "engine", "subject"]);
  const cells = new Map<string, { prompt: string; engine: string; tally: Tally }>();
  for (const row of rows) {
    const key = `${row.prompt}\u0000${row.engine}`;
    let cell = cells.get(key);
    if (cell === undefined) {
      cell = { prompt: row.prompt, engine: row.engine, tally: new Tally() };
      cells.set(key, cell);
    }
    cell.tally.add(row);
  }
  const names = project.competitors.map((c) => c.name);
  return {
    object: "prompt_metrics",
    from: period.from,
    to: period.to,
    data: [...cells.values()]
      .sort((a, b) => a.prompt.localeCompare(b.prompt) || a.engine.localeCompare(b.engine))
      .map(({ prompt, engine, tally }) => {
        const { counts, figures } = tally.slice(names);
        return { prompt, engine, counts, figures };
      }),
  };
}
