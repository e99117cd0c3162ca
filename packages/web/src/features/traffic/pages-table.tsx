import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ExternalLinkIcon, FileTextIcon } from "lucide-react";
import { useState } from "react";
import { CsvButton } from "../../components/csv-button.tsx";
import { EmptyState, QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { RelativeText } from "../../components/when.tsx";
import { fileSlug } from "../../lib/csv.ts";
import { engineName, formatNumber } from "../../lib/format.ts";
import { periodPhrase } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { PAGES_PER_PAGE, type TrafficPage, trafficPagesQuery } from "./traffic-api.ts";

/** "ChatGPT 3 · Perplexity 1": a count's parts, the largest first. */
function parts(items: { name: string; n: number }[]): string {
  return items
    .filter((i) => i.n > 0)
    .sort((a, b) => b.n - a.n)
    .map((i) => `${i.name} ${formatNumber(i.n)}`)
    .join(" · ");
}

function Flags({ page }: { page: TrafficPage }) {
  if (!page.crawled_not_cited && !page.cited_not_crawled && !page.cited_and_visited) return null;
  return (
    <span className="mt-1 flex flex-wrap gap-1">
      {page.cited_and_visited && <Badge variant="success">Cited and visited</Badge>}
      {page.crawled_not_cited && <Badge variant="warning">Crawled, not cited</Badge>}
      {page.cited_not_crawled && <Badge variant="outline">Cited, not crawled</Badge>}
    </span>
  );
}

function Figure({ total, detail }: { total: number; detail: string }) {
  return (
    <>
      <span className="block font-medium tabular-nums">{formatNumber(total)}</span>
      {detail && <span className="block text-xs text-muted-foreground">{detail}</span>}
    </>
  );
}

const crawlDetail = (p: TrafficPage) =>
  [
    p.crawls.total > 0 ? `${formatNumber(p.crawls.verified)} verified` : "",
    p.crawls.errors > 0 ? `${formatNumber(p.crawls.errors)} errors served` : "",
    parts(p.crawls.by_bot.map((b) => ({ name: b.bot, n: b.hits }))),
  ]
    .filter(Boolean)
    .join(" · ");
const citationDetail = (p: TrafficPage) =>
  parts(p.citations.by_engine.map((e) => ({ name: engineName(e.engine), n: e.citations })));
const visitDetail = (p: TrafficPage) =>
  parts(p.referrals.by_engine.map((e) => ({ name: engineName(e.engine), n: e.visits })));

/**
 * The brand's pages joined: what AI crawlers read (logs), what the measured answers cite, and where
 * AI-referred visitors land, page by page, most cited first, a page of the table at a time.
 */
export function PagesTable() {
  const { workspaceId, project, period } = useBrand();
  const [page, setPage] = useState(1);
  // The previous page stays on screen while the next one loads.
  const pages = useQuery({
    ...trafficPagesQuery(workspaceId, project.id, period, page),
    placeholderData: keepPreviousData,
  });
  const data = pages.data;
  const first = data && data.total > 0 ? (page - 1) * PAGES_PER_PAGE + 1 : 0;
  const last = data ? Math.min(data.total, page * PAGES_PER_PAGE) : 0;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / PAGES_PER_PAGE)) : 1;
  const site = `https://${project.primary_domain}`;

  return (
    <SectionCard
      id="traffic-pages"
      titleId="traffic-pages-title"
      title="Pages: crawled, cited, visited"
      description={
        <>
          Each page of {project.name}'s site in {periodPhrase(period)}: how often AI crawlers read it, how often the
          answers Sightline measured cite it, and how many visitors AI answers sent to it. Most cited first.
        </>
      }
      actions={
        data &&
        data.data.length > 0 && (
          <CsvButton
            label="Download this page of the table as CSV"
            file={`${fileSlug(project.name, "pages", period.firstDay, period.lastDay, String(page))}.csv`}
            rows={() => [
              [
                "Page",
                "Crawls",
                "Verified crawls",
                "Errors served",
                "Last crawl",
                "Citations",
                "AI-referred visits",
                "Crawled, not cited",
                "Cited, not crawled",
                "Cited and visited",
              ],
              ...data.data.map((p) => [
                p.path,
                p.crawls.total,
                p.crawls.verified,
                p.crawls.errors,
                p.crawls.last_at,
                p.citations.total,
                p.referrals.total,
                p.crawled_not_cited,
                p.cited_not_crawled,
                p.cited_and_visited,
              ]),
            ]}
          />
        )
      }
      contentClassName="grid gap-3"
    >
      <QueryState query={pages} loading="Loading the pages…" error="The pages could not be loaded" />
      {data && data.total === 0 && (
        <EmptyState icon={<FileTextIcon />} title="No pages in this period">
          Pages appear once logs show AI crawlers or AI-referred visitors on them, or answers cite them.
        </EmptyState>
      )}
      {data && data.data.length > 0 && (
        <>
          <Table aria-describedby="traffic-pages-flags">
            <TableHeader>
              <TableRow>
                <TableHead>Page</TableHead>
                <TableHead className="text-right">AI crawls</TableHead>
                <TableHead wide className="text-right">
                  Citations
                </TableHead>
                <TableHead wide className="text-right">
                  AI-referred visits
                </TableHead>
                <TableHead wide>Last crawl</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.data.map((p) => (
                <TableRow key={p.path} className="align-top">
                  <TableCell className="max-w-0 min-w-40 md:w-2/5">
                    <a
                      href={`${site}${p.path}`}
                      target="_blank"
                      rel="noopener noreferrer nofollow"
                      className="inline-flex items-start gap-1 font-medium text-primary underline-offset-4 wrap-anywhere hover:underline"
                    >
                      {p.path}
                      <ExternalLinkIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
                      <span className="sr-only">(opens in a new tab)</span>
                    </a>
                    <Flags page={p} />
                    <span className="mt-1 block text-xs text-muted-foreground md:hidden">
                      {formatNumber(p.citations.total)} citations · {formatNumber(p.referrals.total)} AI-referred visits
                      · last crawl <RelativeText value={p.crawls.last_at} fallback="none" />
                    </span>
                  </TableCell>
                  <TableCell className="text-right">
                    <Figure total={p.crawls.total} detail={crawlDetail(p)} />
                  </TableCell>
                  <TableCell wide className="text-right">
                    <Figure total={p.citations.total} detail={citationDetail(p)} />
                  </TableCell>
                  <TableCell wide className="text-right">
                    <Figure total={p.referrals.total} detail={visitDetail(p)} />
                  </TableCell>
                  <TableCell wide className="whitespace-nowrap">
                    <RelativeText value={p.crawls.last_at} fallback="None" />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <nav aria-label="Pages of the table" className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <p className="text-muted-foreground tabular-nums">
              {formatNumber(first)}–{formatNumber(last)} of {formatNumber(data.total)} pages
            </p>
            {lastPage > 1 && (
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={page <= 1 || pages.isPlaceholderData}
                  onClick={() => setPage((n) => n - 1)}
                >
                  Previous
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={page >= lastPage || pages.isPlaceholderData}
                  onClick={() => setPage((n) => n + 1)}
                >
                  Next
                </Button>
              </div>
            )}
          </nav>
          <ul id="traffic-pages-flags" className="grid gap-1 text-xs text-muted-foreground">
            <li>
              <span className="font-medium text-foreground">Cited and visited:</span> answers cite it, and people came
              to it from AI answers.
            </li>
            <li>
              <span className="font-medium text-foreground">Crawled, not cited:</span> AI crawlers read it, but no
              answer measured cites it yet.
            </li>
            <li>
              <span className="font-medium text-foreground">Cited, not crawled:</span> answers cite it, but the logs
              show no AI crawler reading it in the period.
            </li>
          </ul>
        </>
      )}
    </SectionCard>
  );
}
