import type { ProjectMetrics } from "@sightline/sdk";
import { ArrowDownRightIcon, ArrowUpRightIcon, MinusIcon } from "lucide-react";
import type { ReactNode } from "react";
import { FigureName, type MetricId } from "../../components/figure-hint.tsx";
import { interval, percent, points, position, sampleSize, sentimentScore, signed } from "../../lib/figures.ts";
import { formatNumber } from "../../lib/format.ts";
import { formatDayRange } from "../../lib/period.ts";
import { cn } from "../../lib/utils.ts";
import { SignificantMark } from "./significance.tsx";

type Change = ProjectMetrics["changes"]["visibility"];

function dayBefore(iso: string): string {
  return new Date(Date.parse(iso) - 1).toISOString().slice(0, 10);
}

/** Up is good for every figure but position, where #1 is best. */
function ChangeLine({
  change,
  text,
  lowerIsBetter = false,
  against,
  steady = 0.0005,
}: {
  change: Change;
  text: string;
  lowerIsBetter?: boolean;
  against: string;
  /** Changes smaller than this show as no change (what rounds to zero on screen). */
  steady?: number;
}) {
  const raw = change.delta;
  const delta = raw === null ? null : Math.abs(raw) < steady ? 0 : raw;
  const better = delta === null || delta === 0 ? null : lowerIsBetter ? delta < 0 : delta > 0;
  const Icon = delta === null || delta === 0 ? MinusIcon : delta > 0 ? ArrowUpRightIcon : ArrowDownRightIcon;
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
      <span
        className={cn(
          "inline-flex items-center gap-0.5 font-medium",
          better === true && "text-success",
          better === false && "text-destructive",
          better === null && "text-muted-foreground",
        )}
      >
        <Icon className="size-3.5" aria-hidden="true" />
        {delta === null ? "no comparison" : text}
      </span>
      {/* Without a figure in the period before, there is no change whose significance could be judged. */}
      <span className="text-muted-foreground">
        {delta === null ? `nothing measured in ${against}` : `vs ${against}`}
      </span>
      {delta !== null && <SignificantMark significant={change.significant} />}
    </p>
  );
}

function Tile({
  figure,
  value,
  detail,
  change,
}: {
  figure: MetricId;
  value: string;
  detail: ReactNode;
  change?: ReactNode;
}) {
  return (
    <div className="rounded-xl border bg-card p-4 shadow-xs">
      <dt className="text-sm text-muted-foreground">
        <FigureName id={figure} />
      </dt>
      <dd className="mt-1">
        <span className="text-2xl font-semibold tabular-nums">{value}</span>
        <span className="mt-0.5 block text-xs text-muted-foreground">{detail}</span>
        {change}
      </dd>
    </div>
  );
}

/**
 * The five headline figures of the period, each with its glossary name and hint and its change against
 * the period before. In a first period (nothing measured before it), that is said once above the tiles, not on each.
 */
export function MetricTiles({ metrics, domain }: { metrics: ProjectMetrics; domain: string }) {
  const { figures, counts, competitors } = metrics.total.overall;
  const against = formatDayRange(metrics.previous.from.slice(0, 10), dayBefore(metrics.previous.to));
  const first = Object.values(metrics.changes).every((change) => change.delta === null);
  // In a first period, no tile gets a change line.
  const changes = first ? null : metrics.changes;
  return (
    <>
      {first && <FirstPeriodNote against={against} />}
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Tile
          figure="visibility"
          value={percent(figures.visibility.value)}
          detail={
            figures.visibility.n > 0
              ? `${interval(figures.visibility)} (95% interval), ${sampleSize(figures.visibility.n)} answers; ${formatNumber(figures.visibility.count)} name the brand`
              : "no answers (n = 0)"
          }
          change={
            changes && (
              <ChangeLine change={changes.visibility} text={points(changes.visibility.delta)} against={against} />
            )
          }
        />
        <Tile
          figure="share_of_voice"
          value={percent(figures.share_of_voice)}
          detail={`of the mentions of the brand and its ${competitors.length} competitors`}
          change={
            changes && (
              <ChangeLine
                change={changes.share_of_voice}
                text={points(changes.share_of_voice.delta)}
                against={against}
              />
            )
          }
        />
        <Tile
          figure="average_position"
          value={position(figures.average_position)}
          detail={`rank among the tracked brands named (#1 = first), over ${formatNumber(counts.position_count)} answers naming it`}
          change={
            changes && (
              <ChangeLine
                change={changes.average_position}
                text={signed(changes.average_position.delta)}
                lowerIsBetter
                steady={0.05}
                against={against}
              />
            )
          }
        />
        <Tile
          figure="sentiment"
          value={sentimentScore(figures.sentiment_score)}
          detail={`0 = negative, 50 = neutral, 100 = positive; over ${formatNumber(counts.sentiment_count)} answers naming it`}
          change={
            changes && (
              <ChangeLine
                change={changes.sentiment_score}
                text={`${signed(changes.sentiment_score.delta)} points`}
                steady={0.05}
                against={against}
              />
            )
          }
        />
        <Tile
          figure="citation_rate"
          value={percent(figures.citation_rate.value)}
          detail={
            figures.citation_rate.n > 0
              ? `answers citing ${domain}: ${interval(figures.citation_rate)} (95% interval), ${sampleSize(figures.citation_rate.n)} answers with sources`
              : "no answers with sources (n = 0)"
          }
          change={
            changes && (
              <ChangeLine change={changes.citation_rate} text={points(changes.citation_rate.delta)} against={against} />
            )
          }
        />
      </dl>
    </>
  );
}

/** Said once on a first period's page, instead of "no comparison" on each figure. */
function FirstPeriodNote({ against }: { against: string }) {
  return (
    <p className="rounded-md border bg-muted/50 px-3 py-2 text-sm text-muted-foreground">
      Nothing to compare yet: no answers were measured in the period before ({against}). Changes appear here once it has
      some.
    </p>
  );
}
