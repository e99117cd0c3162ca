import type { Cost, Usage } from "@sightline/sdk";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { engineName, formatDate, formatNumber, formatUsd } from "../../lib/format.ts";

function sorted(counts: Record<string, number>): [string, number][] {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1]);
}

export function CreditsByEngine({ byEngine, used }: { byEngine: Record<string, number>; used: number }) {
  const rows = sorted(byEngine);
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No credits used yet this period.</p>;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Engine</TableHead>
          <TableHead className="text-right">Credits</TableHead>
          <TableHead className="text-right">Share</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(([engine, count]) => (
          <TableRow key={engine}>
            <TableCell>{engineName(engine)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatNumber(count)}</TableCell>
            <TableCell className="text-right tabular-nums text-muted-foreground">
              {used > 0 ? `${Math.round((count / used) * 100)}%` : "—"}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** What each engine's answers cost this period, dearest first; tokens and searches from 640 px up (a phone gets the cost). */
export function CostByEngine({ cost }: { cost: Cost }) {
  const rows = Object.entries(cost.by_engine).sort((a, b) => b[1].cost - a[1].cost);
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No answers finished yet this period.</p>;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Engine</TableHead>
          <TableHead className="text-right">Answers</TableHead>
          <TableHead className="hidden text-right sm:table-cell">Tokens</TableHead>
          <TableHead className="hidden text-right sm:table-cell">Searches</TableHead>
          <TableHead className="text-right">Cost</TableHead>
          <TableHead className="text-right">Per answer</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(([engine, row]) => (
          <TableRow key={engine}>
            <TableCell>{engineName(engine)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatNumber(row.answers)}</TableCell>
            <TableCell className="hidden text-right tabular-nums sm:table-cell">
              {formatNumber(row.input_tokens + row.output_tokens)}
            </TableCell>
            <TableCell className="hidden text-right tabular-nums sm:table-cell">
              {formatNumber(row.search_calls)}
            </TableCell>
            <TableCell className="text-right tabular-nums">{formatUsd(row.cost)}</TableCell>
            <TableCell className="text-right tabular-nums text-muted-foreground">
              {row.answers > 0 ? formatUsd(row.cost / row.answers) : "—"}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The last twelve billing periods' cost, newest first; months before the first answer are left out. */
export function CostByMonth({ months }: { months: Usage["cost"]["months"] }) {
  const lastUsed = months.reduce((last, month, index) => (month.cost.answers > 0 ? index : last), -1);
  const shown = months.slice(0, Math.max(1, lastUsed + 1));
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Period from</TableHead>
          <TableHead className="text-right">Answers</TableHead>
          <TableHead className="text-right">Cost</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {shown.map((month) => (
          <TableRow key={month.start}>
            <TableCell>{formatDate(month.start)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatNumber(month.cost.answers)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatUsd(month.cost.total)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Requests by endpoint, most used first; the full list folds away after the first ten. */
export function RequestsByEndpoint({ byEndpoint }: { byEndpoint: Record<string, number> }) {
  const rows = sorted(byEndpoint);
  if (rows.length === 0) {
    return <p className="text-sm text-muted-foreground">No API requests yet this period.</p>;
  }
  const table = (list: [string, number][]) => (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Endpoint</TableHead>
          <TableHead className="text-right">Requests</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {list.map(([endpoint, count]) => (
          <TableRow key={endpoint}>
            <TableCell className="font-mono text-xs">{endpoint}</TableCell>
            <TableCell className="text-right tabular-nums">{formatNumber(count)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  if (rows.length <= 10) return table(rows);
  return (
    <>
      {table(rows.slice(0, 10))}
      <details className="text-sm">
        <summary className="cursor-pointer text-primary">Show all {formatNumber(rows.length)} endpoints</summary>
        <div className="mt-2">{table(rows.slice(10))}</div>
      </details>
    </>
  );
}
