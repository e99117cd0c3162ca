import type { ProjectMetrics } from "@sightline/sdk";
import { Bar, BarChart, CartesianGrid, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { GLOSSARY } from "../../generated/glossary.ts";
import { position, sentimentScore } from "../../lib/figures.ts";
import { engineName, formatNumber } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { ChartCard } from "../charts/chart-card.tsx";
import { AXIS, GRID_COLOR, TooltipBox, TooltipRow } from "../charts/chart-parts.tsx";
import { engineColor } from "../charts/palette.ts";

interface EngineRow {
  engine: string;
  name: string;
  color: string;
  position: number | null;
  sentiment: number | null;
  named: number;
}

function rowsOf(metrics: ProjectMetrics): EngineRow[] {
  return metrics.engines.map((engine) => {
    const slice = metrics.total.by_engine[engine];
    return {
      engine,
      name: engineName(engine),
      color: engineColor(engine),
      position: slice?.figures.average_position ?? null,
      sentiment: slice?.figures.sentiment_score ?? null,
      named: slice?.counts.position_count ?? 0,
    };
  });
}

function EngineBars({
  rows,
  dataKey,
  domain,
  format,
}: {
  rows: EngineRow[];
  dataKey: "position" | "sentiment";
  domain: [number, number];
  format: (value: number | null) => string;
}) {
  return (
    <ResponsiveContainer width="100%" height={Math.max(120, rows.length * 44 + 30)}>
      <BarChart
        data={rows}
        layout="vertical"
        margin={{ top: 4, right: 56, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        <CartesianGrid stroke={GRID_COLOR} horizontal={false} />
        <XAxis
          type="number"
          domain={domain}
          tick={AXIS}
          tickLine={false}
          axisLine={{ stroke: GRID_COLOR }}
          allowDecimals={false}
        />
        <YAxis type="category" dataKey="name" tick={AXIS} tickLine={false} axisLine={false} width={120} />
        <Tooltip
          cursor={{ fill: "#f4f4f5" }}
          content={({ active, payload }) => {
            const row = payload?.[0]?.payload as EngineRow | undefined;
            return active && row ? (
              <TooltipBox title={row.name}>
                <TooltipRow
                  color={row.color}
                  name={dataKey === "position" ? GLOSSARY.average_position.name : GLOSSARY.sentiment.name}
                  value={format(row[dataKey])}
                />
                <TooltipRow color={row.color} name="Answers naming the brand" value={formatNumber(row.named)} />
              </TooltipBox>
            ) : null;
          }}
        />
        <Bar dataKey={dataKey} isAnimationActive={false} radius={[0, 4, 4, 0]} barSize={22}>
          {rows.map((row) => (
            <Cell key={row.engine} fill={row.color} />
          ))}
          <LabelList
            dataKey={dataKey}
            position="right"
            formatter={(value: unknown) => format(typeof value === "number" ? value : null)}
            style={{ fontSize: 12, fill: "#27272a" }}
          />
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Average position and sentiment per engine, side by side. */
export function EngineCharts({ metrics, subtitle }: { metrics: ProjectMetrics; subtitle: string }) {
  const { project } = useBrand();
  const rows = rowsOf(metrics);
  const legend = rows.map(({ name, color }) => ({ name, color }));
  const span = `${metrics.from.slice(0, 10)} ${metrics.to.slice(0, 10)}`;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ChartCard
        id="position-chart"
        title="Average position by engine"
        figure="average_position"
        description={`Where ${project.name} ranks among the tracked brands an answer names (#1 = named first); shorter is better.`}
        subtitle={subtitle}
        legend={legend}
        table={{
          columns: ["Engine", "Average position (rank)", "Answers naming the brand (n)"],
          rows: rows.map((r) => [r.name, r.position, r.named]),
        }}
        filename={`${project.name} position by engine ${span}`}
        summary={`Bar chart of average position by engine: ${rows.map((r) => `${r.name} ${position(r.position)}`).join(", ")}.`}
      >
        <EngineBars
          rows={rows}
          dataKey="position"
          domain={[0, Math.max(1, Math.ceil(Math.max(...rows.map((r) => r.position ?? 0))))]}
          format={position}
        />
      </ChartCard>
      <ChartCard
        id="sentiment-chart"
        title="Sentiment by engine"
        figure="sentiment"
        description={`The tone of the sentences naming ${project.name}, from 0 (negative) through 50 (neutral) to 100 (positive).`}
        subtitle={subtitle}
        legend={legend}
        table={{
          columns: ["Engine", "Sentiment (0–100)", "Answers naming the brand (n)"],
          rows: rows.map((r) => [r.name, r.sentiment, r.named]),
        }}
        filename={`${project.name} sentiment by engine ${span}`}
        summary={`Bar chart of sentiment by engine: ${rows.map((r) => `${r.name} ${sentimentScore(r.sentiment)}`).join(", ")}.`}
      >
        <EngineBars rows={rows} dataKey="sentiment" domain={[0, 100]} format={sentimentScore} />
      </ChartCard>
    </div>
  );
}
