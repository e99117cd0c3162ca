import { ArrowDownIcon, ArrowUpIcon } from "lucide-react";
import { CsvButton } from "../../components/csv-button.tsx";
import { FigureName } from "../../components/figure-hint.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { countryLabel } from "../../lib/countries.ts";
import { fileSlug } from "../../lib/csv.ts";
import { interval, percent, position, proportion, sampleSize, sentimentScore } from "../../lib/figures.ts";
import { engineName } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import type { Breakdown, BreakdownGroup } from "./audiences-api.ts";

const WORDS = {
  persona: {
    title: "By persona",
    column: "Persona",
    titleId: "by-persona-title",
    alone:
      "Nothing to compare yet: every answer of the period was asked as the same person. Add personas above; the next analysis asks as each of them.",
  },
  country: {
    title: "By country",
    column: "Country",
    titleId: "by-country-title",
    alone:
      "Nothing to compare yet: every answer of the period was asked from the same place. Add countries above; the next analysis asks from each of them.",
  },
} as const;

/** A group's name as people read it: the persona's name, or the country's with its code. */
function groupName(breakdown: Breakdown, group: BreakdownGroup): string {
  if (breakdown.by === "country" && group.key !== null) return countryLabel(group.key);
  if (breakdown.by === "persona" && group.key === null) return "Nobody in particular";
  return group.label;
}

/** Whether the group's visibility stands apart from all answers' (their 95% intervals do not overlap), in words. */
function StandsApart({ against }: { against: "above" | "below" }) {
  return against === "above" ? (
    <Badge variant="success">
      <ArrowUpIcon aria-hidden="true" />
      Above all answers
    </Badge>
  ) : (
    <Badge variant="warning">
      <ArrowDownIcon aria-hidden="true" />
      Below all answers
    </Badge>
  );
}

/** The brand's figures per persona or per country, each group against all answers together. */
export function BreakdownTable({ breakdown }: { breakdown: Breakdown }) {
  const { project } = useBrand();
  const words = WORDS[breakdown.by];
  const groups = breakdown.groups;
  const csvRows = () => [
    [
      words.column,
      "Key",
      "Answers",
      "Visibility (%)",
      "95% low (%)",
      "95% high (%)",
      "Answers naming the brand",
      "Citation rate (%)",
      "Average position",
      "Sentiment (0-100)",
      "Visibility score (0-100)",
      "Against all answers",
    ],
    ...groups.map((g) => [
      groupName(breakdown, g),
      g.key ?? "",
      g.answers,
      g.visibility.value === null ? "" : Math.round(g.visibility.value * 1000) / 10,
      g.visibility.ci_low === null ? "" : Math.round(g.visibility.ci_low * 1000) / 10,
      g.visibility.ci_high === null ? "" : Math.round(g.visibility.ci_high * 1000) / 10,
      g.visibility.count,
      g.citation_rate.value === null ? "" : Math.round(g.citation_rate.value * 1000) / 10,
      g.average_position ?? "",
      g.sentiment ?? "",
      g.visibility_score ?? "",
      g.against_all,
    ]),
  ];
  return (
    <SectionCard
      titleId={words.titleId}
      title={words.title}
      description={
        <>
          All answers{breakdown.engine ? ` of ${engineName(breakdown.engine)}` : ""}: visibility{" "}
          {proportion(breakdown.visibility)}. A group is marked when its interval does not overlap this one: a real
          difference, not chance.
        </>
      }
      actions={
        groups.length > 0 && (
          <CsvButton
            label={`Download the figures ${words.title.toLowerCase()} as CSV`}
            file={`${fileSlug(project.name, `by-${breakdown.by}`, breakdown.from.slice(0, 10), breakdown.to.slice(0, 10))}.csv`}
            rows={csvRows}
          />
        )
      }
    >
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{words.column}</TableHead>
            <TableHead>
              <FigureName id="visibility" />
            </TableHead>
            <TableHead wide>
              <FigureName id="citation_rate" />
            </TableHead>
            <TableHead wide>
              <FigureName id="average_position" />
            </TableHead>
            <TableHead wide>
              <FigureName id="sentiment" />
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {groups.map((group) => (
            <TableRow key={group.key ?? "none"}>
              <TableHead
                scope="row"
                className="h-auto py-2.5 align-top text-sm font-medium whitespace-normal text-foreground"
              >
                <span className="wrap-anywhere">{groupName(breakdown, group)}</span>
                <span className="mt-1 block text-xs font-normal text-muted-foreground md:hidden">
                  Citation rate {percent(group.citation_rate.value)} · Average position{" "}
                  {position(group.average_position)} · Sentiment {sentimentScore(group.sentiment)}
                </span>
              </TableHead>
              <TableCell className="align-top">
                <span className="font-semibold tabular-nums">{percent(group.visibility.value)}</span>{" "}
                <span className="text-xs text-muted-foreground tabular-nums">
                  {group.visibility.n > 0
                    ? `(${interval(group.visibility)}, ${sampleSize(group.visibility.n)})`
                    : "(n = 0)"}
                </span>
                {group.against_all !== "overlap" && (
                  <span className="mt-1 flex">
                    <StandsApart against={group.against_all} />
                  </span>
                )}
              </TableCell>
              <TableCell wide className="align-top tabular-nums">
                {percent(group.citation_rate.value)}{" "}
                <span className="text-xs text-muted-foreground">({interval(group.citation_rate)})</span>
              </TableCell>
              <TableCell wide className="align-top tabular-nums">
                {position(group.average_position)}
              </TableCell>
              <TableCell wide className="align-top tabular-nums">
                {sentimentScore(group.sentiment)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {groups.length < 2 && <p className="mt-3 text-sm text-muted-foreground">{words.alone}</p>}
    </SectionCard>
  );
}
