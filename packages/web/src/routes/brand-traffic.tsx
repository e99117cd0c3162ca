import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { QueryState } from "../components/page-states.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { FiltersBar } from "../features/brand-page/filters-bar.tsx";
import { AccessAudit } from "../features/traffic/access-audit.tsx";
import { CrawlersTable } from "../features/traffic/crawlers-table.tsx";
import { CrawlsChart } from "../features/traffic/crawls-chart.tsx";
import { Ga4Card } from "../features/traffic/ga4-card.tsx";
import { IngestTokensCard } from "../features/traffic/ingest-tokens-card.tsx";
import { PagesTable } from "../features/traffic/pages-table.tsx";
import { ReferralsChart } from "../features/traffic/referrals-chart.tsx";
import { trafficDays, trafficQuery } from "../features/traffic/traffic-api.ts";
import { NoTraffic, TrafficIntro } from "../features/traffic/traffic-intro.tsx";
import { TrafficTotals } from "../features/traffic/traffic-totals.tsx";
import { UploadCard } from "../features/traffic/upload-card.tsx";
import { useTitle } from "../lib/use-title.ts";

/** The ways a brand's logs get in: an upload, a log drain, GA4. */
function WaysIn() {
  return (
    <section aria-labelledby="ways-in-title" className="grid gap-4">
      <h2 id="ways-in-title" className="text-lg font-semibold">
        Get logs in
      </h2>
      <UploadCard />
      <IngestTokensCard />
      <Ga4Card />
    </section>
  );
}

/**
 * A brand's AI traffic from its own logs (issue 26): AI crawls and AI-referred visits per day, the
 * crawlers, the pages joined with the answers' citations, whether the crawlers may read the site,
 * and the ways logs get in. With no logs yet, the ways in come first.
 */
export function BrandTrafficPage() {
  const { workspaceId, project, period } = useBrand();
  useTitle(`Traffic · ${project.name}`);
  const traffic = useQuery(trafficQuery(workspaceId, project.id, trafficDays(period)));
  const data = traffic.data;
  const empty = data !== undefined && data.totals.bot_hits === 0 && data.totals.referrals === 0;
  // All time, asked only when the period is empty: "no logs yet" or "none in this period".
  const ever = useQuery({ ...trafficQuery(workspaceId, project.id, null), enabled: empty });
  const never = empty && ever.data !== undefined && ever.data.days.length === 0;
  // Where the ways in go is settled once, when it is first known: an upload that brings the first
  // logs must not move (and so reset) the card that shows its outcome.
  const [waysFirst, setWaysFirst] = useState<boolean | null>(null);
  const known = never || (data !== undefined && !empty) || (empty && ever.data !== undefined) || traffic.isError;
  if (waysFirst === null && known) setWaysFirst(never);
  return (
    <div className="grid gap-6">
      <TrafficIntro />
      <FiltersBar periodOnly />
      <QueryState query={traffic} loading="Loading the traffic…" error="The traffic could not be loaded" />
      {empty && ever.data && <NoTraffic ever={ever.data} />}
      {waysFirst === true && <WaysIn />}
      {data && !empty && (
        // Where an upload's "Show the figures" leads.
        <div id="traffic-figures" tabIndex={-1} className="grid min-w-0 gap-6 outline-none">
          <TrafficTotals traffic={data} />
          <CrawlsChart traffic={data} />
          <ReferralsChart traffic={data} />
          {data.bots.length > 0 && <CrawlersTable traffic={data} />}
        </div>
      )}
      {data && !never && <PagesTable key={`${period.from} ${period.to}`} />}
      <AccessAudit />
      {waysFirst === false && <WaysIn />}
    </div>
  );
}
