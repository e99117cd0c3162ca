import type { Traffic } from "@sightline/sdk";
import { percent } from "../../lib/figures.ts";
import { engineName, formatNumber, plural } from "../../lib/format.ts";
import { periodPhrase } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { Stat } from "../overview/stat.tsx";

/** The period's headline figures: crawls (and how many verified), referred visits, crawlers seen. */
export function TrafficTotals({ traffic }: { traffic: Traffic }) {
  const { period } = useBrand();
  const { totals } = traffic;
  const crawlers = new Map<string, { operator: string; hits: number }>();
  for (const b of traffic.bots) {
    const known = crawlers.get(b.bot);
    crawlers.set(b.bot, { operator: b.operator, hits: (known?.hits ?? 0) + b.hits });
  }
  const busiest = [...crawlers].sort((a, b) => b[1].hits - a[1].hits)[0];
  const topEngine = traffic.engines[0];
  return (
    <dl className="grid gap-3 sm:grid-cols-3">
      <Stat
        label="AI crawls"
        value={formatNumber(totals.bot_hits)}
        detail={
          totals.bot_hits === 0
            ? `pages requested by AI crawlers in ${periodPhrase(period)}`
            : `${formatNumber(totals.verified)} verified (${percent(totals.verified / totals.bot_hits)}) · ${formatNumber(totals.unverifiable)} unverifiable · ${formatNumber(totals.spoofed)} spoofed`
        }
      />
      <Stat
        label="AI-referred visits"
        value={formatNumber(totals.referrals)}
        detail={
          topEngine
            ? `from ${plural(traffic.engines.length, "engine")}, most from ${engineName(topEngine.engine)} (${formatNumber(topEngine.visits)})`
            : `people who followed a link in an AI answer, in ${periodPhrase(period)}`
        }
      />
      <Stat
        label="AI crawlers seen"
        value={formatNumber(crawlers.size)}
        detail={
          busiest
            ? `the most active: ${busiest[0]} (${busiest[1].operator}), ${plural(busiest[1].hits, "crawl")}`
            : "none in the period"
        }
      />
    </dl>
  );
}
