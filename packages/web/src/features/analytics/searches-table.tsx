import type { ProjectSearches } from "@sightline/sdk";
import { useState } from "react";
import { CsvButton } from "../../components/csv-button.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { fileSlug } from "../../lib/csv.ts";
import { engineName, formatNumber } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";

/** Searches shown before "Show all"; the CSV has every one. */
const FIRST_SEARCHES = 10;

function engineList(engines: Record<string, number>): string {
  return Object.entries(engines)
    .sort(([, a], [, b]) => b - a)
    .map(([engine, n]) => `${engineName(engine)} ${formatNumber(n)}`)
    .join(", ");
}

/**
 * The web searches the engines ran while answering the brand's prompts (query fan-out): what a
 * page must answer to be found and cited, and whether the searches already name the brand.
 */
export function SearchesTable({ searches }: { searches: ProjectSearches }) {
  const { project } = useBrand();
  const [showAll, setShowAll] = useState(false);
  const span = [searches.from.slice(0, 10), searches.to.slice(0, 10)];
  const { totals } = searches;
  const rows = showAll ? searches.data : searches.data.slice(0, FIRST_SEARCHES);
  return (
    <SectionCard
      titleId="searches-title"
      title="Searches the engines ran"
      description={
        totals.answers_with_searches === 0
          ? "No engine reported the web searches behind its answers in this period. Engines that search with their vendor's own tool (ChatGPT, Claude, Gemini) report them; chat-completion engines and AI Overviews do not."
          : `${formatNumber(totals.searches)} different searches behind ${formatNumber(totals.answers_with_searches)} of ${formatNumber(totals.answers)} answers: what a page must answer to be found and cited.`
      }
      actions={
        searches.data.length > 0 && (
          <CsvButton
            label="Download the searches as CSV"
            file={`${fileSlug(project.name, "searches", ...span)}.csv`}
            rows={() => [
              ["Search", "Answers", "Engines", "Names the brand", "Competitors named"],
              ...searches.data.map((row) => [
                row.search,
                row.answers,
                engineList(row.engines),
                row.brand ? "yes" : "no",
                row.competitors.join("; "),
              ]),
            ]}
          />
        )
      }
    >
      {searches.data.length > 0 && (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Search</TableHead>
                <TableHead className="text-right">Answers</TableHead>
                <TableHead wide>Engines</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.search}>
                  <TableCell>
                    <span className="block font-medium wrap-anywhere">{row.search}</span>
                    {(row.brand || row.competitors.length > 0) && (
                      <span className="mt-1 flex flex-wrap gap-1">
                        {row.brand && <Badge variant="success">names {project.name}</Badge>}
                        {row.competitors.map((name) => (
                          <Badge key={name} variant="outline">
                            names {name}
                          </Badge>
                        ))}
                      </span>
                    )}
                    <span className="mt-1 block text-xs text-muted-foreground md:hidden">
                      {engineList(row.engines)}
                    </span>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(row.answers)}</TableCell>
                  <TableCell wide className="text-muted-foreground">
                    {engineList(row.engines)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {searches.data.length > FIRST_SEARCHES && (
            <Button variant="outline" size="sm" className="mt-3" onClick={() => setShowAll((all) => !all)}>
              {showAll ? `Show the first ${FIRST_SEARCHES} searches` : `Show all ${searches.data.length} searches`}
            </Button>
          )}
        </>
      )}
    </SectionCard>
  );
}
