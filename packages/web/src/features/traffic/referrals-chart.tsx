import type { Traffic } from "@sightline/sdk";
import { useQueries } from "@tanstack/react-query";
import { engineName, formatNumber } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { engineColor } from "../charts/palette.ts";
import { DailyChart, type DailySeries, perDay } from "./daily-chart.tsx";
import { trafficDays, trafficQuery } from "./traffic-api.ts";

/** Engines drawn one by one; the others together. */
const TOP_ENGINES = 5;
const REST_COLOR = "#71717a";

/**
 * Visits referred by AI engines per day, by engine: people who followed a link in an engine's answer
 * to the brand's site. Each engine's days are the summary filtered to it (one request per engine).
 */
export function ReferralsChart({ traffic }: { traffic: Traffic }) {
  const { workspaceId, project, period } = useBrand();
  const range = trafficDays(period);
  const engines = traffic.engines.filter((e) => e.visits > 0).map((e) => e.engine);
  const shown = engines.slice(0, TOP_ENGINES);
  const parts = useQueries({
    queries: shown.map((engine) => trafficQuery(workspaceId, project.id, range, { engine })),
  });
  const values = parts.map((p) => (p.data ? perDay(p.data, "referrals") : new Map<string, number>()));
  const series: DailySeries[] = shown.map((engine, i) => ({
    key: `engine-${i}`,
    name: engineName(engine),
    color: engineColor(engine),
    values: values[i] ?? new Map<string, number>(),
  }));
  if (engines.length > shown.length || shown.length === 0) {
    const total = perDay(traffic, "referrals");
    series.push({
      key: "rest",
      name: shown.length === 0 ? "All engines" : "Other engines",
      color: REST_COLOR,
      values: new Map(
        [...total].map(([day, n]) => [day, Math.max(0, n - values.reduce((sum, v) => sum + (v.get(day) ?? 0), 0))]),
      ),
    });
  }
  const { logs, ga4 } = traffic.referrals_by_source;
  return (
    <DailyChart
      id="referrals-chart"
      title="AI-referred visits per day"
      description="People who followed a link in an AI engine's answer to the site, each day, by engine."
      unit="visits"
      series={series}
      loading={parts.some((p) => p.isPending)}
      error={parts.find((p) => p.isError)?.error ?? null}
      onRetry={() => {
        for (const p of parts) if (p.isError) void p.refetch();
      }}
      note={
        ga4 > 0
          ? `Counted by the access logs (${formatNumber(logs)}) and GA4 (${formatNumber(ga4)}); a visit both counted is counted once.`
          : undefined
      }
    />
  );
}
