import { ImageDownIcon } from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import { toast } from "sonner";
import { CsvButton } from "../../components/csv-button.tsx";
import { FigureHint, type MetricId } from "../../components/figure-hint.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { errorMessage } from "../../lib/api.ts";
import { type CsvCell, fileSlug } from "../../lib/csv.ts";
import { downloadChartPng, type PngLegendItem } from "../../lib/export-png.ts";

export interface ChartTable {
  columns: string[];
  rows: CsvCell[][];
}

/**
 * A chart in its card: title, what it shows, a legend, the chart, and for everyone who cannot see it
 * (or wants the numbers) the same figures as a table; the chart downloads as a PNG, its figures as CSV.
 */
export function ChartCard({
  id,
  title,
  figure,
  description,
  subtitle,
  legend,
  table,
  filename,
  summary,
  actions,
  note,
  markers,
  children,
}: {
  id: string;
  title: string;
  /** The glossary's figure the chart shows: its hint sits beside the title (outside it, so the card's name stays the title). */
  figure?: MetricId;
  description: ReactNode;
  /** Printed under the title in the PNG: the brand, the period, the engine. */
  subtitle: string;
  legend: PngLegendItem[];
  table: ChartTable;
  filename: string;
  /** The chart in one sentence, for screen readers. */
  summary: string;
  actions?: ReactNode;
  /** A line under the chart, e.g. why it looks sparse. */
  note?: ReactNode;
  /** Under the chart: what its marks stand for (the brand's recorded changes), as links. */
  markers?: ReactNode;
  children: ReactNode;
}) {
  const chart = useRef<HTMLDivElement>(null);
  const [saving, setSaving] = useState(false);
  const slug = fileSlug(filename);

  async function savePng() {
    const svg = chart.current?.querySelector<SVGSVGElement>("svg.recharts-surface, svg");
    if (!svg) return;
    setSaving(true);
    try {
      await downloadChartPng(svg, { title, subtitle, legend, filename: `${slug}.png` });
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card aria-labelledby={`${id}-title`} className="min-w-0">
      <CardHeader>
        <div className="min-w-0">
          <div className="flex items-center gap-1">
            <CardTitle id={`${id}-title`}>{title}</CardTitle>
            {figure && <FigureHint id={figure} />}
          </div>
          <CardDescription>{description}</CardDescription>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {actions}
          <Button
            variant="outline"
            size="sm"
            onClick={savePng}
            disabled={saving}
            aria-label={`Download “${title}” as PNG`}
          >
            <ImageDownIcon aria-hidden="true" />
            PNG
          </Button>
          <CsvButton
            label={`Download the data of “${title}” as CSV`}
            file={`${slug}.csv`}
            rows={() => [table.columns, ...table.rows]}
          />
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        {legend.length > 1 && (
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label={`Legend of “${title}”`}>
            {legend.map((item) => (
              <li key={item.name} className="flex items-center gap-1.5">
                <span
                  className="size-2.5 shrink-0 rounded-sm"
                  style={{ backgroundColor: item.color }}
                  aria-hidden="true"
                />
                {item.name}
              </li>
            ))}
          </ul>
        )}
        <div ref={chart} role="img" aria-label={summary} className="min-w-0">
          {children}
        </div>
        {markers}
        {note && <p className="text-xs text-muted-foreground">{note}</p>}
        <details className="group text-sm">
          <summary className="w-fit cursor-pointer rounded-sm text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            Show the figures as a table
          </summary>
          <section
            className="mt-2 max-h-80 overflow-auto rounded-md border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
            tabIndex={0}
            aria-label={`Figures of “${title}”`}
          >
            <table className="w-full text-xs">
              <caption className="sr-only">{title}</caption>
              <thead className="sticky top-0 bg-muted">
                <tr>
                  {table.columns.map((column) => (
                    <th key={column} scope="col" className="px-2 py-1.5 text-left font-medium whitespace-nowrap">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional and never reordered
                  <tr key={index} className="border-t">
                    {row.map((cell, column) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                      <td key={column} className="px-2 py-1 whitespace-nowrap tabular-nums">
                        {cell === null || cell === undefined || cell === "" ? "–" : String(cell)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </details>
      </CardContent>
    </Card>
  );
}
