import type { CompetitorLeaderboard } from "@sightline/sdk";
import { CsvButton } from "../../components/csv-button.tsx";
import { FigureName } from "../../components/figure-hint.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { fileSlug } from "../../lib/csv.ts";
import { interval, percent, points, position, proportion, sampleSize, signed } from "../../lib/figures.ts";
import { formatDayRange } from "../../lib/period.ts";
import { cn } from "../../lib/utils.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { pct } from "../charts/chart-parts.tsx";
import { SignificantMark } from "./significance.tsx";

function Delta({
  text,
  value,
  lowerIsBetter = false,
}: {
  text: string;
  value: number | null;
  lowerIsBetter?: boolean;
}) {
  const good = value === null || Math.abs(value) < 0.0005 ? null : lowerIsBetter ? value < 0 : value > 0;
  return (
    <span
      className={cn(
        "text-xs",
        good === true && "text-success",
        good === false && "text-destructive",
        good === null && "text-muted-foreground",
      )}
    >
      {value === null ? "no comparison" : text}
    </span>
  );
}

/** The brand and its competitors ranked by visibility, with changes against the period before. */
export function Leaderboard({ board }: { board: CompetitorLeaderboard }) {
  const { project } = useBrand();
  const previous = formatDayRange(
    board.previous.from.slice(0, 10),
    new Date(Date.parse(board.previous.to) - 1).toISOString().slice(0, 10),
  );
  // A first period: nothing measured before it, said once instead of on every row.
  const first = board.data.every(
    (row) =>
      row.change.visibility === null && row.change.share_of_voice === null && row.change.average_position === null,
  );
  const csvRows = () => [
    [
      "Rank",
      "Brand",
      "Is your brand",
      "Visibility (%)",
      "95% low (%)",
      "95% high (%)",
      "Answers (n)",
      "Answers naming it",
      "Share of voice (%)",
      "Average position",
      "Visibility change (pts)",
      "Share of voice change (pts)",
      "Position change",
      "Significant",
    ],
    ...board.data.map((row, index) => [
      index + 1,
      row.name,
      row.is_brand ? "yes" : "no",
      pct(row.visibility.value),
      pct(row.visibility.ci_low),
      pct(row.visibility.ci_high),
      row.visibility.n,
      row.mentioned,
      pct(row.share_of_voice),
      row.average_position,
      pct(row.change.visibility),
      pct(row.change.share_of_voice),
      row.change.average_position,
      row.change.significant ? "yes" : "no",
    ]),
  ];
  return (
    <SectionCard
      titleId="leaderboard-title"
      title="Leaderboard"
      description={
        <>
          Visibility (share of answers naming each brand, with its 95% interval and n), share of voice and average
          position;{" "}
          {first
            ? `nothing to compare yet: no answers were measured in the period before (${previous}).`
            : `changes against ${previous}.`}
        </>
      }
      actions={
        <CsvButton
          label="Download the leaderboard as CSV"
          file={`${fileSlug(project.name, "competitors", board.from.slice(0, 10), board.to.slice(0, 10))}.csv`}
          rows={csvRows}
        />
      }
    >
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead className="w-10">Rank</TableHead>
            <TableHead>Brand</TableHead>
            <TableHead>
              <FigureName id="visibility" />
            </TableHead>
            <TableHead wide>
              <FigureName id="share_of_voice" />
            </TableHead>
            <TableHead wide>
              <FigureName id="average_position" />
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {board.data.map((row, index) => (
            <TableRow key={row.name} className={cn(row.is_brand && "bg-primary/5")}>
              <TableCell className="align-top font-medium tabular-nums">{index + 1}</TableCell>
              <TableCell className="align-top">
                <span className="font-medium">{row.name}</span>
                {row.is_brand && (
                  <Badge variant="default" className="ml-2">
                    Your brand
                  </Badge>
                )}
                <span className="mt-1 block text-xs text-muted-foreground md:hidden">
                  Share of voice {percent(row.share_of_voice)}
                  {!first && (
                    <>
                      {" "}
                      (<Delta text={points(row.change.share_of_voice)} value={row.change.share_of_voice} />)
                    </>
                  )}{" "}
                  · Average position {position(row.average_position)}
                  {!first && (
                    <>
                      {" "}
                      (
                      <Delta
                        text={signed(row.change.average_position)}
                        value={row.change.average_position}
                        lowerIsBetter
                      />
                      )
                    </>
                  )}
                </span>
              </TableCell>
              <TableCell className="align-top">
                <span className="font-semibold tabular-nums" title={proportion(row.visibility)}>
                  {percent(row.visibility.value)}
                </span>{" "}
                <span className="text-xs text-muted-foreground tabular-nums">
                  {row.visibility.n > 0 ? `(${interval(row.visibility)}, ${sampleSize(row.visibility.n)})` : "(n = 0)"}
                </span>
                {!first && (
                  <span className="mt-0.5 flex flex-wrap items-center gap-2">
                    <Delta text={points(row.change.visibility)} value={row.change.visibility} />
                    <SignificantMark significant={row.change.visibility === null ? null : row.change.significant} />
                  </span>
                )}
              </TableCell>
              <TableCell wide className="align-top tabular-nums">
                {percent(row.share_of_voice)}
                {!first && (
                  <span className="block">
                    <Delta text={points(row.change.share_of_voice)} value={row.change.share_of_voice} />
                  </span>
                )}
              </TableCell>
              <TableCell wide className="align-top tabular-nums">
                {position(row.average_position)}
                {!first && (
                  <span className="block">
                    <Delta
                      text={signed(row.change.average_position)}
                      value={row.change.average_position}
                      lowerIsBetter
                    />
                  </span>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </SectionCard>
  );
}
