import type { ProjectMetrics, AnalyticsSlice as Slice } from "@sightline/sdk";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  ErrorBar,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { proportion } from "../../lib/figures.ts";
import { engineName } from "../../lib/format.ts";
import { bucketLabel } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { ChartCard } from "../charts/chart-card.tsx";
import { AXIS, GRID_COLOR, pct, sparseNote, TooltipBox, TooltipRow } from "../charts/chart-parts.tsx";
import { ALL_ENGINES_COLOR, engineColor } from "../charts/palette.ts";
import {
  bucketOf,
  ChangeMarkersList,
  markerLines,
  markersSentence,
  placeMarkers,
  useChangeMarkers,
} from "../experiments/change-markers.tsx";

const ALL = "__all";

interface Series {
  key: string;
  name: string;
  color: string;
}

function point(slice: Slice | undefined) {
  const v = slice?.figures.visibility;
  if (!v || v.n === 0 || v.value === null) return null;
  return v;
}

/** Visibility per bucket and engine, each line with its 95% interval as a band around it. */
export function VisibilityChart({ metrics, subtitle }: { metrics: ProjectMetrics; subtitle: string }) {
  const { project } = useBrand();
  const engines = metrics.engines;
  const series: Series[] = engines.map((engine) => ({
    key: engine,
    name: engineName(engine),
    color: engineColor(engine),
  }));
  if (engines.length !== 1) series.unshift({ key: ALL, name: "All engines", color: ALL_ENGINES_COLOR });

  const data = metrics.series.map((bucket) => {
    const row: Record<string, unknown> = { label: bucketLabel(bucket.start, metrics.interval), start: bucket.start };
    for (const s of series) {
      const v = point(s.key === ALL ? bucket.overall : bucket.by_engine[s.key]);
      row[s.key] = v ? pct(v.value) : null;
      row[`${s.key}:band`] = v && v.ci_low !== null && v.ci_high !== null ? [pct(v.ci_low), pct(v.ci_high)] : null;
      row[`${s.key}:text`] = v ? proportion(v) : "no answers (n = 0)";
    }
    return row;
  });
  // A point with no measured neighbour has no band to draw (an area needs two points): its interval
  // is drawn as a whisker instead, so that a first analysis already shows its uncertainty.
  data.forEach((row, index) => {
    for (const s of series) {
      const band = row[`${s.key}:band`] as [number, number] | null;
      const value = row[s.key] as number | null;
      const isolated = data[index - 1]?.[s.key] == null && data[index + 1]?.[s.key] == null;
      row[`${s.key}:whisker`] = isolated && band && value !== null ? [value - band[0], band[1] - value] : null;
    }
  });

  const columns = ["Period start (UTC)"];
  for (const s of series)
    columns.push(
      `${s.name} visibility (%)`,
      `${s.name} 95% low (%)`,
      `${s.name} 95% high (%)`,
      `${s.name} answers (n)`,
    );
  const rows = metrics.series.map((bucket) => {
    const cells: (string | number | null)[] = [bucket.start.slice(0, 10)];
    for (const s of series) {
      const v = (s.key === ALL ? bucket.overall : bucket.by_engine[s.key])?.figures.visibility;
      cells.push(v?.n ? pct(v.value) : null, v?.n ? pct(v.ci_low) : null, v?.n ? pct(v.ci_high) : null, v?.n ?? 0);
    }
    return cells;
  });
  const overall = metrics.total.overall.figures.visibility;
  const placed = placeMarkers(
    useChangeMarkers(),
    bucketOf(
      metrics.series.map((bucket) => ({ start: bucket.start, label: bucketLabel(bucket.start, metrics.interval) })),
      metrics.to,
    ),
  );

  return (
    <ChartCard
      id="visibility-chart"
      title="Visibility over time"
      figure="visibility"
      description={`Share of answers that name ${project.name}, per ${metrics.interval} and engine; the shaded band is the 95% interval.`}
      subtitle={subtitle}
      legend={series.map(({ name, color }) => ({ name, color }))}
      table={{ columns, rows }}
      filename={`${project.name} visibility ${metrics.from.slice(0, 10)} ${metrics.to.slice(0, 10)}`}
      note={sparseNote(metrics.series.filter((bucket) => bucket.overall.counts.answers > 0).length, metrics.interval)}
      summary={`Line chart of visibility per ${metrics.interval}, ${series.map((s) => s.name).join(", ")}. Over the period: ${proportion(overall)}.${markersSentence(placed)}`}
      markers={<ChangeMarkersList placed={placed} />}
    >
      <ResponsiveContainer width="100%" height={280}>
        <ComposedChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: -8 }} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID_COLOR} vertical={false} />
          <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={{ stroke: GRID_COLOR }} minTickGap={16} />
          <YAxis domain={[0, 100]} tick={AXIS} tickLine={false} axisLine={false} unit="%" width={48} />
          <Tooltip
            content={({ active, payload, label }) => {
              const row = payload?.[0]?.payload as Record<string, unknown> | undefined;
              return active && row ? (
                <TooltipBox title={String(label)}>
                  {series.map((s) => (
                    <TooltipRow key={s.key} color={s.color} name={s.name} value={String(row[`${s.key}:text`])} />
                  ))}
                </TooltipBox>
              ) : null;
            }}
          />
          {series.map((s) => (
            <Area
              key={`${s.key}:band`}
              dataKey={`${s.key}:band`}
              stroke="none"
              fill={s.color}
              fillOpacity={0.08}
              isAnimationActive={false}
              legendType="none"
              activeDot={false}
              connectNulls={false}
            />
          ))}
          {series.map((s) => (
            <Line
              key={s.key}
              dataKey={s.key}
              name={s.name}
              stroke={s.color}
              strokeWidth={2}
              strokeDasharray={s.key === ALL ? "5 3" : undefined}
              dot={{ r: 3, fill: s.color }}
              isAnimationActive={false}
              connectNulls={false}
            >
              <ErrorBar dataKey={`${s.key}:whisker`} width={8} stroke={s.color} strokeWidth={1.5} direction="y" />
            </Line>
          ))}
          {markerLines(placed)}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
