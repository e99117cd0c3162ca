import type { ReactNode } from "react";

/** Shared look of the charts' axes and tooltips. */
export const AXIS = { fontSize: 12, fill: "#52525b" } as const;
export const GRID_COLOR = "#e4e4e7";

export function TooltipBox({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-md border bg-popover px-3 py-2 text-xs shadow-md">
      <p className="mb-1 font-medium">{title}</p>
      <ul className="grid gap-0.5">{children}</ul>
    </div>
  );
}

export function TooltipRow({ color, name, value }: { color: string; name: string; value: string }) {
  return (
    <li className="flex items-center gap-1.5">
      <span className="size-2 shrink-0 rounded-sm" style={{ backgroundColor: color }} aria-hidden="true" />
      <span className="text-muted-foreground">{name}:</span>
      <span className="font-medium tabular-nums">{value}</span>
    </li>
  );
}

/** A percentage with one decimal for tables and CSV: 0.4512 → 45.1. */
export function pct(value: number | null | undefined): number | null {
  return value === null || value === undefined ? null : Math.round(value * 1000) / 10;
}

/** Under a time series with fewer than two measured buckets: why it shows dots rather than lines. */
export function sparseNote(measured: number, interval: string): string | undefined {
  if (measured >= 2) return undefined;
  return `Only one ${interval} has answers so far: the lines appear as more analyses run (a daily schedule in Monitoring does it by itself).`;
}
