import type { ProjectSources } from "@sightline/sdk";
import { ExternalLinkIcon } from "lucide-react";
import { useState } from "react";
import { CsvButton } from "../../components/csv-button.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { fileSlug } from "../../lib/csv.ts";
import { formatNumber } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { Sparkline } from "../charts/sparkline.tsx";
import { CATEGORY_LABEL, SourceCategoryBadge, SourceKindBadge } from "./source-kind.tsx";

/** Pages shown before "Show all": the long tail is in the CSV, or one click away. */
const FIRST_PAGES = 10;

function Change({ current, previous }: { current: number; previous: number }) {
  const delta = current - previous;
  if (delta === 0) return <span className="text-muted-foreground">no change</span>;
  return (
    <span className={delta > 0 ? "text-success" : "text-destructive"}>
      {delta > 0 ? "+" : "−"}
      {formatNumber(Math.abs(delta))}
    </span>
  );
}

/** Every cited domain with its counts and its trend; then the most cited pages. */
export function SourcesTables({ sources }: { sources: ProjectSources }) {
  const { project } = useBrand();
  const [showAllPages, setShowAllPages] = useState(false);
  const span = [sources.from.slice(0, 10), sources.to.slice(0, 10)];
  const step = sources.domains[0]?.series.length && sources.domains[0].series.length > 31 ? "week" : "day";
  return (
    <>
      <SectionCard
        titleId="domains-title"
        title="Cited domains"
        description={
          <>
            Citations in the period (answers can cite a domain more than once), against the period before, and their
            trend per {step === "week" ? "week" : "day"}.
          </>
        }
        actions={
          <CsvButton
            label="Download the cited domains as CSV"
            file={`${fileSlug(project.name, "domains", ...span)}.csv`}
            rows={() => [
              [
                "Domain",
                "Whose",
                "Category",
                "Competitor",
                "Citations",
                "Answers citing it",
                "Citations in the previous period",
              ],
              ...sources.domains.map((d) => [
                d.domain,
                d.kind,
                CATEGORY_LABEL[d.category],
                d.competitor,
                d.citations,
                d.answers,
                d.previous_citations,
              ]),
            ]}
          />
        }
      >
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Domain</TableHead>
              <TableHead className="text-right">Citations</TableHead>
              <TableHead wide className="text-right">
                Answers
              </TableHead>
              <TableHead wide className="text-right">
                vs previous
              </TableHead>
              <TableHead wide>Trend</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {sources.domains.map((d) => (
              <TableRow key={d.domain}>
                <TableCell>
                  <span className="block font-medium wrap-anywhere">{d.domain}</span>
                  <span className="mt-1 flex flex-wrap gap-1">
                    <SourceKindBadge kind={d.kind} competitor={d.competitor} />
                    <SourceCategoryBadge category={d.category} />
                  </span>
                  <span className="mt-1 block text-xs text-muted-foreground md:hidden">
                    {formatNumber(d.answers)} answers · <Change current={d.citations} previous={d.previous_citations} />{" "}
                    vs previous period
                  </span>
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(d.citations)}</TableCell>
                <TableCell wide className="text-right tabular-nums">
                  {formatNumber(d.answers)}
                </TableCell>
                <TableCell wide className="text-right tabular-nums">
                  <Change current={d.citations} previous={d.previous_citations} />
                  <span className="block text-xs text-muted-foreground">was {formatNumber(d.previous_citations)}</span>
                </TableCell>
                <TableCell wide>
                  <Sparkline values={d.series.map((s) => s.citations)} />
                  <span className="sr-only">
                    Citations per {step}: {d.series.map((s) => s.citations).join(", ")}
                  </span>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </SectionCard>
      <SectionCard
        titleId="urls-title"
        title="Most cited pages"
        description={
          <>
            The pages the engines cited most in the period ({formatNumber(sources.urls.length)} in all; the CSV has
            every one).
          </>
        }
        actions={
          <CsvButton
            label="Download the cited pages as CSV"
            file={`${fileSlug(project.name, "pages", ...span)}.csv`}
            rows={() => [
              ["URL", "Domain", "Whose", "Category", "Competitor", "Citations"],
              ...sources.urls.map((u) => [
                u.url,
                u.domain,
                u.kind,
                CATEGORY_LABEL[u.category],
                u.competitor,
                u.citations,
              ]),
            ]}
          />
        }
      >
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Page</TableHead>
              <TableHead className="text-right">Citations</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {(showAllPages ? sources.urls : sources.urls.slice(0, FIRST_PAGES)).map((u) => (
              <TableRow key={u.url}>
                <TableCell>
                  <a
                    href={u.url}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="inline-flex items-start gap-1 text-primary underline-offset-4 wrap-anywhere hover:underline"
                  >
                    {u.url}
                    <ExternalLinkIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                  <span className="mt-1 flex flex-wrap gap-1">
                    <SourceKindBadge kind={u.kind} competitor={u.competitor} />
                    <SourceCategoryBadge category={u.category} />
                  </span>
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(u.citations)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {sources.urls.length > FIRST_PAGES && (
          <Button variant="outline" size="sm" className="mt-3" onClick={() => setShowAllPages((all) => !all)}>
            {showAllPages ? `Show the first ${FIRST_PAGES} pages` : `Show all ${sources.urls.length} pages`}
          </Button>
        )}
      </SectionCard>
    </>
  );
}
