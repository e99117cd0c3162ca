import type { ProjectSources } from "@sightline/sdk";
import { Bar, BarChart, CartesianGrid, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { ChartCard } from "../charts/chart-card.tsx";
import { AXIS, GRID_COLOR, TooltipBox, TooltipRow } from "../charts/chart-parts.tsx";
import { KIND_COLOR, KIND_NAME } from "./source-kind.tsx";

/** The most cited domains as bars, coloured by whose they are. */
export function SourcesChart({ sources, subtitle }: { sources: ProjectSources; subtitle: string }) {
  const { project } = useBrand();
  const top = sources.domains.slice(0, 12).map((d) => ({ ...d, kindName: KIND_NAME[d.kind] }));
  return (
    <ChartCard
      id="sources-chart"
      title="Top cited domains"
      description="How many times the engines cited each domain in the period, coloured by whose it is."
      subtitle={subtitle}
      legend={(["brand", "competitor", "other"] as const).map((kind) => ({
        name: KIND_NAME[kind],
        color: KIND_COLOR[kind],
      }))}
      table={{
        columns: ["Domain", "Whose", "Citations", "Answers citing it", "Citations in the previous period"],
        rows: sources.domains.map((d) => [
          d.domain,
          d.competitor ?? KIND_NAME[d.kind],
          d.citations,
          d.answers,
          d.previous_citations,
        ]),
      }}
      filename={`${project.name} cited domains ${sources.from.slice(0, 10)} ${sources.to.slice(0, 10)}`}
      summary={`Bar chart of the most cited domains: ${top
        .slice(0, 5)
        .map((d) => `${d.domain} ${d.citations} citations`)
        .join(", ")}.`}
    >
      <ResponsiveContainer width="100%" height={Math.max(140, top.length * 30 + 30)}>
        <BarChart
          data={top}
          layout="vertical"
          margin={{ top: 4, right: 40, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke={GRID_COLOR} horizontal={false} />
          <XAxis type="number" tick={AXIS} tickLine={false} axisLine={{ stroke: GRID_COLOR }} allowDecimals={false} />
          <YAxis type="category" dataKey="domain" tick={AXIS} tickLine={false} axisLine={false} width={130} />
          <Tooltip
            cursor={{ fill: "#f4f4f5" }}
            content={({ active, payload }) => {
              const row = payload?.[0]?.payload as (typeof top)[number] | undefined;
              return active && row ? (
                <TooltipBox title={row.domain}>
                  <TooltipRow color={KIND_COLOR[row.kind]} name="Whose" value={row.competitor ?? row.kindName} />
                  <TooltipRow color={KIND_COLOR[row.kind]} name="Citations" value={formatNumber(row.citations)} />
                  <TooltipRow color={KIND_COLOR[row.kind]} name="Answers citing it" value={formatNumber(row.answers)} />
                </TooltipBox>
              ) : null;
            }}
          />
          <Bar dataKey="citations" isAnimationActive={false} radius={[0, 4, 4, 0]} barSize={18}>
            {top.map((d) => (
              <Cell key={d.domain} fill={KIND_COLOR[d.kind]} />
            ))}
            <LabelList dataKey="citations" position="right" style={{ fontSize: 12, fill: "#27272a" }} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
