import type { Static } from "typebox";
import type { ServiceContext } from "../context.ts";
import type { ProjectSourcesSchema } from "./schemas.ts";

type ProjectSources = Static<typeof ProjectSourcesSchema>;
type SourceDomain = ProjectSources["domains"][number];

import { type CitationCategory, categorizeDomain } from "../measurement/citation-category.ts";
import { getProject } from "../projects/projects.ts";
import { bucketOf, bucketsOf, type Interval, periodOf, previousOf, spansOf } from "./period.ts";
import { answerSourceRows, rollupSourceRows } from "./source-rows.ts";
import { checkFilters, type Filters, scopeOf } from "./tally.ts";

const kindOf = (kind: string): SourceDomain["kind"] => (kind === "brand" || kind === "competitor" ? kind : "other");

/**
 * The sources engines cite for the brand's prompts: the top domains (whose they are, how often,
 * against the period before, over time) and the top URLs.
 */
export async function projectSources(
  ctx: ServiceContext,
  projectId: string,
  input: Omit<Filters, "prompt"> & { from?: string; to?: string; limit?: number; category?: CitationCategory },
): Promise<ProjectSources> {
  await checkFilters(ctx, input);
  const project = await getProject(ctx, projectId);
  // Categories are given at read time from the rollups' kind and the project's current overrides, so a
  // changed override shows at once, without re-measuring or rebuilding the rollups.
  const overrides = project.citation_categories ?? [];
  const categoryOf = (kind: SourceDomain["kind"], domain: string): CitationCategory =>
    kind === "brand"
      ? "owned"
      : kind === "competitor"
        ? "competitor"
        : categorizeDomain(domain, { brandDomains: [], competitorDomains: [], overrides });
  const period = periodOf(input, ctx.clock);
  const previous = previousOf(period);
  const limit = input.limit ?? 20;
  const interval: Interval = period.days <= 31 ? "day" : "week";
  // Rows of the given spans: whole weeks and days, as few as cover each period (see spansOf). A tag's
  // prompts are counted from their answers: the source rollups are not kept per prompt.
  const { prompts } = scopeOf(project, input);
  const rows =
    prompts === undefined
      ? rollupSourceRows(ctx, projectId, input.engine)
      : answerSourceRows(
          ctx,
          projectId,
          { engine: input.engine, prompts },
          { fromDay: previous.fromDay, toDay: period.toDay },
        );
  const current = spansOf(period.fromDay, period.toDay);
  const byUrl = (await rows.byUrl(current)).map((row) => {
    const kind = kindOf(row.kind);
    return { ...row, kind, category: categoryOf(kind, row.domain) };
  });
  const totals = { citations: 0, brand: 0, competitor: 0, other: 0 };
  const categories: Record<CitationCategory, number> = {
    owned: 0,
    competitor: 0,
    social: 0,
    reference: 0,
    news: 0,
    review: 0,
    other: 0,
  };
  const byDomain = new Map<string, Omit<SourceDomain, "previous_citations" | "series">>();
  for (const row of byUrl) {
    totals.citations += row.citations;
    totals[row.kind] += row.citations;
    categories[row.category] += row.citations;
    if (input.category !== undefined && row.category !== input.category) continue;
    const domain = byDomain.get(row.domain);
    if (domain === undefined) {
      byDomain.set(row.domain, {
        domain: row.domain,
        kind: row.kind,
        category: row.category,
        competitor: row.competitor,
        citations: row.citations,
        answers: row.answers,
      });
    } else {
      domain.citations += row.citations;
      domain.answers += row.answers;
    }
  }
  const top = [...byDomain.values()]
    .sort((a, b) => b.citations - a.citations || a.domain.localeCompare(b.domain))
    .slice(0, limit);
  const names = top.map((row) => row.domain);
  // The top domains over time (the series' buckets are days or whole weeks) and in the period before.
  const perBucket =
    names.length === 0
      ? []
      : await rows.byDomainAndStart(
          [
            ...spansOf(previous.fromDay, previous.toDay),
            ...(interval === "day" ? [{ grain: "day" as const, from: period.fromDay, to: period.toDay }] : current),
          ],
          names,
        );
  const buckets = bucketsOf(period, interval);
  const series = new Map<string, Map<string, number>>();
  const before = new Map<string, number>();
  for (const row of perBucket) {
    if (row.start < period.fromDay) {
      before.set(row.domain, (before.get(row.domain) ?? 0) + row.citations);
      continue;
    }
    const points = series.get(row.domain) ?? new Map<string, number>();
    const key = bucketOf(row.start, interval);
    points.set(key, (points.get(key) ?? 0) + row.citations);
    series.set(row.domain, points);
  }
  const urls = byUrl
    .filter((row) => input.category === undefined || row.category === input.category)
    .sort((a, b) => b.citations - a.citations || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
    .slice(0, limit);
  return {
    object: "project_sources",
    from: period.from,
    to: period.to,
    totals,
    categories,
    domains: top.map((row) => ({
      ...row,
      previous_citations: before.get(row.domain) ?? 0,
      series: buckets.map((bucket) => ({
        start: bucket.start,
        citations: series.get(row.domain)?.get(bucket.key) ?? 0,
      })),
    })),
    urls: urls.map((row) => ({
      url: row.url,
      domain: row.domain,
      kind: row.kind,
      category: row.category,
      competitor: row.competitor,
      citations: row.citations,
    })),
  };
}
