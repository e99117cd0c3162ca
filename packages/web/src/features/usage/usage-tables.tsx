import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { engineName, formatNumber } from "../../lib/format.ts";

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
