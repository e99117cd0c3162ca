import type { Traffic } from "@sightline/sdk";
import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ErrorState, LoadingState } from "../../components/page-states.tsx";
import { formatNumber } from "../../lib/format.ts";
import { bucketLabel, type Period } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { ChartCard } from "../charts/chart-card.tsx";
import { AXIS, GRID_COLOR, TooltipBox, TooltipRow } from "../charts/chart-parts.tsx";
import {
  ChangeMarkersList,
  markerLines,
  markersSentence,
  placeMarkers,
  useChangeMarkers,
} from "../experiments/change-markers.tsx";

const DAY = 86_400_000;

/** Every UTC day of the period, YYYY-MM-DD, oldest first (days without traffic are zeros, not gaps). */
function periodDays(period: Period): string[] {
  const first = Date.parse(`${period.firstDay}T00:00:00Z`);
  return Array.from({ length: period.days }, (_, i) => new Date(first + i * DAY).toISOString().slice(0, 10));
}

/** A summary's count per day. */
export function perDay(traffic: Traffic, field: "bot_hits" | "referrals"): Map<string, number> {
  return new Map(traffic.days.map((d) => [d.day, d[field]]));
}

export interface DailySeries {
  key: string;
  name: string;
  color: string;
  values: Map<string, number>;
}

/** The chart's scope under its title in the PNG: the brand and the period (every engine, every bot). */
function trafficSubtitle(name: string, period: Period): string {
  return `${name} · ${period.custom ? period.label : `${period.label}, ${period.firstDay} to ${period.lastDay}`} (UTC days)`;
}

/**
 * Counts per UTC day as stacked bars, one colour per series, in a chart card (title, legend, the
 * figures as a table, PNG and CSV). While the series' own queries load, or if one failed, that is
 * shown in place of the chart.
 */
export function DailyChart({
  id,
  title,
  description,
  unit,
  series,
  loading,
  error,
  onRetry,
  actions,
  note,
}: {
  id: string;
  title: string;
  description: ReactNode;
  /** What one is: "crawls", "visits". */
  unit: string;
  series: DailySeries[];
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  actions?: ReactNode;
  note?: ReactNode;
}) {
  const { project, period } = useBrand();
  const days = periodDays(period);
  const data = days.map((day) => {
    const row: Record<string, string | number> = { day, label: bucketLabel(`${day}T00:00:00Z`, "day") };
    for (const s of series) row[s.key] = s.values.get(day) ?? 0;
    return row;
  });
  const totals = series.map((s) => ({ ...s, total: days.reduce((sum, day) => sum + (s.values.get(day) ?? 0), 0) }));
  const all = totals.reduce((sum, s) => sum + s.total, 0);
  const inPeriod = new Set(days);
  const placed = placeMarkers(useChangeMarkers(), (iso) => {
    const day = iso.slice(0, 10);
    return inPeriod.has(day) ? bucketLabel(`${day}T00:00:00Z`, "day") : null;
  });
  return (
    <ChartCard
      id={id}
      title={title}
      description={description}
      subtitle={trafficSubtitle(project.name, period)}
      legend={series.map(({ name, color }) => ({ name, color }))}
      table={{
        columns: ["Day (UTC)", ...series.map((s) => `${s.name} (${unit})`)],
        rows: data.map((row) => [String(row.day), ...series.map((s) => Number(row[s.key]))]),
      }}
      filename={`${project.name} ${title} ${period.firstDay} ${period.lastDay}`}
      summary={`Bar chart of ${unit} per day over ${days.length} days: ${formatNumber(all)} in all${totals.length > 1 ? `; ${totals.map((s) => `${s.name} ${formatNumber(s.total)}`).join(", ")}` : ""}.${markersSentence(placed)}`}
      markers={<ChangeMarkersList placed={placed} />}
      actions={actions}
      note={note}
    >
      {loading ? (
        <LoadingState label={`Loading ${unit} per day…`} className="h-[260px] justify-center" />
      ) : error ? (
        <ErrorState error={error} title={`The ${unit} per day could not be loaded`} onRetry={onRetry} />
      ) : (
        <ResponsiveContainer width="100%" height={260}>
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} accessibilityLayer={false}>
            <CartesianGrid stroke={GRID_COLOR} vertical={false} />
            <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={{ stroke: GRID_COLOR }} minTickGap={16} />
            <YAxis tick={AXIS} tickLine={false} axisLine={false} allowDecimals={false} width={48} />
            <Tooltip
              cursor={{ fill: "var(--muted)" }}
              content={({ active, payload, label }) => {
                const row = payload?.[0]?.payload as Record<string, number> | undefined;
                return active && row ? (
                  <TooltipBox title={`${label} (UTC)`}>
                    {series.map((s) => (
                      <TooltipRow key={s.key} color={s.color} name={s.name} value={formatNumber(row[s.key] ?? 0)} />
                    ))}
                  </TooltipBox>
                ) : null;
              }}
            />
            {series.map((s, index) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.name}
                stackId="day"
                fill={s.color}
                isAnimationActive={false}
                radius={index === series.length - 1 ? [3, 3, 0, 0] : 0}
              />
            ))}
            {markerLines(placed)}
          </BarChart>
        </ResponsiveContainer>
      )}
    </ChartCard>
  );
}
