import type { Traffic } from "@sightline/sdk";
import { ActivityIcon } from "lucide-react";
import { EmptyState } from "../../components/page-states.tsx";
import { formatDate } from "../../lib/format.ts";
import { periodPhrase } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";

/** What the page shows, in plain words, with the few terms it uses. */
export function TrafficIntro() {
  const { project } = useBrand();
  return (
    <div className="grid gap-2">
      <h2 className="text-lg font-semibold">Traffic</h2>
      <p className="max-w-3xl text-sm text-muted-foreground">
        What AI engines do on {project.name}'s own website, read from its access logs: their crawlers fetching its pages
        (the programs that read the web for ChatGPT, Perplexity, Claude and others) and the people who arrive by
        clicking a link in an AI answer. Below, whether those crawlers may read the site at all.
      </p>
      <details className="max-w-3xl text-sm">
        <summary className="w-fit cursor-pointer rounded-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
          What the words on this page mean
        </summary>
        <dl className="mt-2 grid gap-x-4 gap-y-1.5 sm:grid-cols-[11rem_minmax(0,1fr)]">
          <dt className="font-medium">AI crawl</dt>
          <dd className="text-muted-foreground">
            One page requested by an AI engine's crawler, such as GPTBot (OpenAI) or PerplexityBot. A page read before
            it can be cited.
          </dd>
          <dt className="font-medium">Verified</dt>
          <dd className="text-muted-foreground">
            The request came from an address the crawler's operator publishes: it really is that crawler. Unverifiable:
            its operator publishes no addresses. Spoofed: someone else pretending to be it; not counted as the crawler.
          </dd>
          <dt className="font-medium">AI-referred visit</dt>
          <dd className="text-muted-foreground">
            A person who followed a link in an AI engine's answer to the site (counted from the logs, or from Google
            Analytics 4).
          </dd>
          <dt className="font-medium">Cited</dt>
          <dd className="text-muted-foreground">
            An answer Sightline measured for this brand links to the page as a source.
          </dd>
          <dt className="font-medium">robots.txt</dt>
          <dd className="text-muted-foreground">
            A file at the root of a site that says which crawlers may read which pages.
          </dd>
        </dl>
        <p className="mt-2 text-muted-foreground">
          Only counts are kept: no visitor's address, browser or query string is stored.
        </p>
      </details>
    </div>
  );
}

/**
 * Nothing to show. With no traffic ever, how to get logs in (the ways are right below); with some,
 * only not in this period: when the last day with any was.
 */
export function NoTraffic({ ever }: { ever: Traffic }) {
  const { period } = useBrand();
  const last = ever.days.at(-1)?.day;
  if (last === undefined) {
    return (
      <EmptyState icon={<ActivityIcon />} title="No logs yet">
        Sightline has not read any of this brand's access logs. Upload a log file below (a minute's work, with the file
        from your web host), or set up a log drain so that Cloudflare, Vercel, Fastly or your server sends them by
        itself. The robots.txt check below works without any logs.
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<ActivityIcon />} title={`No AI crawls or AI-referred visits in ${periodPhrase(period)}`}>
      The last day with any was {formatDate(`${last}T00:00:00Z`)}. Choose a longer period, or send newer logs below.
    </EmptyState>
  );
}
