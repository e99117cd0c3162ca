import type { Traffic } from "@sightline/sdk";
import { useQueries } from "@tanstack/react-query";
import { useState } from "react";
import { SelectField } from "../../components/select-field.tsx";
import { useBrand } from "../brand-page/brand-context.tsx";
import { seriesColor } from "../charts/palette.ts";
import { DailyChart, type DailySeries, perDay } from "./daily-chart.tsx";
import { trafficDays, trafficQuery } from "./traffic-api.ts";

/** Crawlers drawn one by one; the others together. */
const TOP_BOTS = 5;
const VERIFIED_COLOR = "#0f766e";
const OTHERS_COLOR = "#a16207";
const REST_COLOR = "#71717a";

type Split = "verification" | "crawler";

/** What is left of `total` per day once `parts` are taken out. */
function rest(total: Map<string, number>, parts: Map<string, number>[]): Map<string, number> {
  return new Map(
    [...total].map(([day, n]) => [day, Math.max(0, n - parts.reduce((sum, part) => sum + (part.get(day) ?? 0), 0))]),
  );
}

/** The crawlers with the most crawls in the period, most first (verified or not together). */
function topBots(traffic: Traffic): string[] {
  const hits = new Map<string, number>();
  for (const b of traffic.bots) hits.set(b.bot, (hits.get(b.bot) ?? 0) + b.hits);
  return [...hits].sort((a, b) => b[1] - a[1]).map(([bot]) => bot);
}

/**
 * AI crawls per day, split into verified and not verified, or by crawler. The summary counts each
 * day's crawls only in all; each part of a split is the same summary filtered (one request per part).
 */
export function CrawlsChart({ traffic }: { traffic: Traffic }) {
  const { workspaceId, project, period } = useBrand();
  const [split, setSplit] = useState<Split>("verification");
  const range = trafficDays(period);
  const bots = topBots(traffic);
  const shown = bots.slice(0, TOP_BOTS);
  const slices = split === "verification" ? [{ verified: true }] : shown.map((bot) => ({ bot }));
  const parts = useQueries({
    queries: slices.map((slice) => trafficQuery(workspaceId, project.id, range, slice)),
  });
  const total = perDay(traffic, "bot_hits");
  const loaded = parts.every((p) => p.data !== undefined);
  const values = parts.map((p) => (p.data ? perDay(p.data, "bot_hits") : new Map<string, number>()));

  let series: DailySeries[];
  if (split === "verification") {
    const verified = values[0] ?? new Map<string, number>();
    series = [
      { key: "verified", name: "Verified", color: VERIFIED_COLOR, values: verified },
      { key: "unverified", name: "Not verified", color: OTHERS_COLOR, values: rest(total, [verified]) },
    ];
  } else {
    series = shown.map((bot, i) => ({
      key: `bot-${i}`,
      name: bot,
      color: seriesColor(i),
      values: values[i] ?? new Map<string, number>(),
    }));
    if (bots.length > shown.length)
      series.push({ key: "rest", name: "Other crawlers", color: REST_COLOR, values: rest(total, values) });
  }

  return (
    <DailyChart
      id="crawls-chart"
      title="AI crawls per day"
      description={
        split === "verification"
          ? "Pages requested by AI engines' crawlers each day. Verified: from an address the crawler's operator publishes. Not verified: its operator publishes none, or someone else claimed to be the crawler."
          : "Pages requested by AI engines' crawlers each day, by crawler."
      }
      unit="crawls"
      series={series}
      loading={!loaded && !parts.some((p) => p.isError)}
      error={parts.find((p) => p.isError)?.error ?? null}
      onRetry={() => {
        for (const p of parts) if (p.isError) void p.refetch();
      }}
      actions={
        <SelectField
          label="Split by"
          className="min-w-36 grid-cols-[auto_1fr] items-center gap-2 [&>label]:text-xs [&>label]:font-normal"
          triggerClassName="h-8"
          value={split}
          onChange={setSplit}
          options={[
            { value: "verification", label: "Verification" },
            { value: "crawler", label: "Crawler" },
          ]}
        />
      }
    />
  );
}
