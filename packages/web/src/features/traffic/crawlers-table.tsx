import type { Traffic } from "@sightline/sdk";
import { CsvButton } from "../../components/csv-button.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { RelativeText } from "../../components/when.tsx";
import { fileSlug } from "../../lib/csv.ts";
import { formatNumber } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import type { Verification } from "./traffic-api.ts";
import { VERIFICATION } from "./words.ts";

interface CrawlerRow {
  bot: string;
  operator: string;
  hits: Record<Verification, number>;
  total: number;
  last: string;
}

function rowsOf(traffic: Traffic): CrawlerRow[] {
  const rows = new Map<string, CrawlerRow>();
  for (const b of traffic.bots) {
    const row = rows.get(b.bot) ?? {
      bot: b.bot,
      operator: b.operator,
      hits: { verified: 0, unverifiable: 0, spoofed: 0 },
      total: 0,
      last: b.last_at,
    };
    row.hits[b.verification] += b.hits;
    row.total += b.hits;
    if (b.last_at > row.last) row.last = b.last_at;
    rows.set(b.bot, row);
  }
  return [...rows.values()].sort((a, b) => b.total - a.total);
}

const ORDER: Verification[] = ["verified", "unverifiable", "spoofed"];

/** Each AI crawler seen in the period: its crawls by verification, and when it last came. */
export function CrawlersTable({ traffic }: { traffic: Traffic }) {
  const { project, period } = useBrand();
  const rows = rowsOf(traffic);
  return (
    <SectionCard
      titleId="crawlers-title"
      title="AI crawlers"
      description="The programs AI engines send to read web pages, and how many pages each requested in the period. A request can claim to come from any crawler, so each is checked against the addresses its operator publishes."
      actions={
        <CsvButton
          label="Download the AI crawlers as CSV"
          file={`${fileSlug(project.name, "ai crawlers", period.firstDay, period.lastDay)}.csv`}
          rows={() => [
            ["Crawler", "Operator", "Verified", "Unverifiable", "Spoofed", "Last seen"],
            ...rows.map((r) => [r.bot, r.operator, r.hits.verified, r.hits.unverifiable, r.hits.spoofed, r.last]),
          ]}
        />
      }
      contentClassName="grid gap-3"
    >
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Crawler</TableHead>
            <TableHead className="text-right">Crawls</TableHead>
            {ORDER.map((v) => (
              <TableHead key={v} wide className="text-right">
                {VERIFICATION[v].label}
              </TableHead>
            ))}
            <TableHead wide>Last seen</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.bot}>
              <TableCell>
                <span className="block font-medium">{r.bot}</span>
                <span className="block text-xs text-muted-foreground">{r.operator}</span>
                <span className="mt-1 block text-xs text-muted-foreground md:hidden">
                  {ORDER.map((v) => `${formatNumber(r.hits[v])} ${VERIFICATION[v].label.toLowerCase()}`).join(" · ")} ·
                  last seen <RelativeText value={r.last} />
                </span>
              </TableCell>
              <TableCell className="text-right font-medium tabular-nums">{formatNumber(r.total)}</TableCell>
              {ORDER.map((v) => (
                <TableCell
                  key={v}
                  wide
                  className={
                    v === "spoofed" && r.hits.spoofed > 0
                      ? "text-right text-destructive tabular-nums"
                      : "text-right tabular-nums"
                  }
                >
                  {formatNumber(r.hits[v])}
                </TableCell>
              ))}
              <TableCell wide className="whitespace-nowrap">
                <RelativeText value={r.last} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <dl className="grid gap-1 text-xs text-muted-foreground">
        {ORDER.map((v) => (
          <div key={v}>
            <dt className="inline font-medium text-foreground">{VERIFICATION[v].label}:</dt>{" "}
            <dd className="inline">{VERIFICATION[v].explain}.</dd>
          </div>
        ))}
      </dl>
    </SectionCard>
  );
}
