import { SectionCard } from "../../components/section-card.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import type { Change } from "./experiments-api.ts";

type Counts = NonNullable<Change["crawls"]>;

const perDay = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** "+40%", "−12%", "–" from nothing. */
function growth(before: number, after: number): string {
  if (before === 0) return after === 0 ? "±0%" : "new";
  const change = Math.round(((after - before) / before) * 100);
  if (change === 0) return "±0%";
  return `${change > 0 ? "+" : "−"}${Math.abs(change)}%`;
}

function Row({ name, counts }: { name: string; counts: Counts }) {
  return (
    <>
      <TableRow>
        <TableCell className="font-medium">{name}: the changed pages</TableCell>
        <TableCell className="text-right tabular-nums">{perDay.format(counts.before_per_day)}</TableCell>
        <TableCell className="text-right tabular-nums">{perDay.format(counts.after_per_day)}</TableCell>
        <TableCell className="text-right tabular-nums">{growth(counts.before_per_day, counts.after_per_day)}</TableCell>
      </TableRow>
      <TableRow>
        <TableCell className="text-muted-foreground">{name}: the brand's other pages</TableCell>
        <TableCell className="text-right tabular-nums">{perDay.format(counts.other_before_per_day)}</TableCell>
        <TableCell className="text-right tabular-nums">{perDay.format(counts.other_after_per_day)}</TableCell>
        <TableCell className="text-right tabular-nums">
          {growth(counts.other_before_per_day, counts.other_after_per_day)}
        </TableCell>
      </TableRow>
    </>
  );
}

/**
 * The changed pages' AI crawls and AI-referred visits per day, before and after, against the
 * brand's other pages (from the Traffic page's logs). Counts, not tested: requests are not answers.
 */
export function TrafficComparison({ change }: { change: Change }) {
  const { crawls, referrals } = change;
  if (crawls === null && referrals === null) return null;
  const days = crawls ?? referrals;
  return (
    <SectionCard
      titleId="traffic-title"
      title="Crawls and visits of the changed pages"
      description={`Per day, from the brand's logs${days ? ` (${days.days_before} days before, ${days.days_after} after)` : ""}; the brand's other pages show what moved anyway. Counts, not tested for significance.`}
    >
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Per day</TableHead>
            <TableHead className="text-right">Before</TableHead>
            <TableHead className="text-right">After</TableHead>
            <TableHead className="text-right">Change</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {crawls && <Row name="AI crawls" counts={crawls} />}
          {referrals && <Row name="AI-referred visits" counts={referrals} />}
        </TableBody>
      </Table>
    </SectionCard>
  );
}
