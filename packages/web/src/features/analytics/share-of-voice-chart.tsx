import type { ProjectMetrics } from "@sightline/sdk";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { percent } from "../../lib/figures.ts";
import { bucketLabel } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { ChartCard } from "../charts/chart-card.tsx";
import { AXIS, GRID_COLOR, pct, sparseNote, TooltipBox, TooltipRow } from "../charts/chart-parts.tsx";
import { BRAND_COLOR, seriesColor } from "../charts/palette.ts";
import {
  bucketOf,
  ChangeMarkersList,
  markerLines,
  markersSentence,
  placeMarkers,
  useChangeMarkers,
} from "../experiments/change-markers.tsx";

/** The brand's share of the tracked brands' mentions against each competitor's, per bucket. */
export function ShareOfVoiceChart({ metrics, subtitle }: { metrics: ProjectMetrics; subtitle: string }) {
  const { project } = useBrand();
  const names = metrics.total.overall.competitors.map((c) => c.name);
  const series = [
    { key: "brand", name: project.name, color: BRAND_COLOR },
    ...names.map((name, index) => ({ key: `c${index}`, name, color: seriesColor(index) })),
  ];
  const data = metrics.series.map((bucket) => {
    const mentions =
      bucket.overall.counts.mentioned + bucket.overall.competitors.reduce((sum, c) => sum + c.mentioned, 0);
    const row: Record<string, unknown> = { label: bucketLabel(bucket.start, metrics.interval), mentions };
    row.brand = mentions > 0 ? pct(bucket.overall.figures.share_of_voice) : null;
    names.forEach((name, index) => {
      const competitor = bucket.overall.competitors.find((c) => c.name === name);
      row[`c${index}`] = mentions > 0 ? pct(competitor?.share_of_voice) : null;
    });
    return row;
  });
  const rows = data.map((row, index) => [
    metrics.series[index]?.start.slice(0, 10) ?? "",
    ...series.map((s) => row[s.key] as number | null),
    row.mentions as number,
  ]);
  const total = metrics.total.overall.figures.share_of_voice;
  const placed = placeMarkers(
    useChangeMarkers(),
    bucketOf(
      metrics.series.map((bucket) => ({ start: bucket.start, label: bucketLabel(bucket.start, metrics.interval) })),
      metrics.to,
    ),
  );

  return (
    <ChartCard
      id="share-of-voice-chart"
      title="Share of voice against competitors"
      figure="share_of_voice"
      description={`Each brand's share of all mentions of ${project.name} and its competitors, per ${metrics.interval}.`}
      subtitle={subtitle}
      legend={series.map(({ name, color }) => ({ name, color }))}
      table={{
        columns: ["Period start (UTC)", ...series.map((s) => `${s.name} share of voice (%)`), "Mentions (n)"],
        rows,
      }}
      filename={`${project.name} share of voice ${metrics.from.slice(0, 10)} ${metrics.to.slice(0, 10)}`}
      note={sparseNote(data.filter((row) => (row.mentions as number) > 0).length, metrics.interval)}
      summary={`Line chart of share of voice per ${metrics.interval} for ${series.map((s) => s.name).join(", ")}. ${project.name} over the period: ${percent(total)}.${markersSentence(placed)}`}
      markers={<ChangeMarkersList placed={placed} />}
    >
      <ResponsiveContainer width="100%" height={280}>
        <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: -8 }} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID_COLOR} vertical={false} />
          <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={{ stroke: GRID_COLOR }} minTickGap={16} />
          <YAxis domain={[0, 100]} tick={AXIS} tickLine={false} axisLine={false} unit="%" width={48} />
          <Tooltip
            content={({ active, payload, label }) => {
              const row = payload?.[0]?.payload as Record<string, unknown> | undefined;
              return active && row ? (
                <TooltipBox title={`${label} · ${row.mentions} mentions`}>
                  {series.map((s) => (
                    <TooltipRow
                      key={s.key}
                      color={s.color}
                      name={s.name}
                      value={row[s.key] === null ? "–" : `${row[s.key]}%`}
                    />
                  ))}
                </TooltipBox>
              ) : null;
            }}
          />
          {series.map((s) => (
            <Line
              key={s.key}
              dataKey={s.key}
              name={s.name}
              stroke={s.color}
              strokeWidth={s.key === "brand" ? 2.5 : 1.75}
              dot={{ r: 3, fill: s.color }}
              isAnimationActive={false}
              connectNulls={false}
            />
          ))}
          {markerLines(placed)}
        </LineChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
