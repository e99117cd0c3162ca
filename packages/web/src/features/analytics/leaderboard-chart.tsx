import type { CompetitorLeaderboard } from "@sightline/sdk";
import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { proportion } from "../../lib/figures.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { ChartCard } from "../charts/chart-card.tsx";
import { AXIS, GRID_COLOR, pct, TooltipBox, TooltipRow } from "../charts/chart-parts.tsx";
import { BRAND_COLOR } from "../charts/palette.ts";

const COMPETITOR_COLOR = "#71717a";

/** Each brand's visibility as a bar with its 95% interval as a whisker. */
export function LeaderboardChart({ board, subtitle }: { board: CompetitorLeaderboard; subtitle: string }) {
  const { project } = useBrand();
  const rows = board.data.map((row) => {
    const v = row.visibility;
    const value = pct(v.value) ?? 0;
    return {
      name: row.name,
      isBrand: row.is_brand,
      value,
      error: [value - (pct(v.ci_low) ?? value), (pct(v.ci_high) ?? value) - value],
      text: proportion(v),
    };
  });
  return (
    <ChartCard
      id="leaderboard-chart"
      title="Visibility against competitors"
      figure="visibility"
      description="Share of answers naming each brand; the whisker is the 95% interval. Overlapping whiskers: the difference may be noise."
      subtitle={subtitle}
      legend={[
        { name: project.name, color: BRAND_COLOR },
        { name: "Competitors", color: COMPETITOR_COLOR },
      ]}
      table={{
        columns: ["Brand", "Visibility (%)", "95% low (%)", "95% high (%)", "Answers (n)"],
        rows: board.data.map((r) => [
          r.name,
          pct(r.visibility.value),
          pct(r.visibility.ci_low),
          pct(r.visibility.ci_high),
          r.visibility.n,
        ]),
      }}
      filename={`${project.name} visibility against competitors ${board.from.slice(0, 10)} ${board.to.slice(0, 10)}`}
      summary={`Bar chart of visibility by brand: ${rows.map((r) => `${r.name} ${r.text}`).join("; ")}.`}
    >
      <ResponsiveContainer width="100%" height={Math.max(140, rows.length * 40 + 30)}>
        <BarChart
          data={rows}
          layout="vertical"
          margin={{ top: 4, right: 24, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke={GRID_COLOR} horizontal={false} />
          <XAxis
            type="number"
            domain={[0, 100]}
            unit="%"
            tick={AXIS}
            tickLine={false}
            axisLine={{ stroke: GRID_COLOR }}
          />
          <YAxis type="category" dataKey="name" tick={AXIS} tickLine={false} axisLine={false} width={110} />
          <Tooltip
            cursor={{ fill: "#f4f4f5" }}
            content={({ active, payload }) => {
              const row = payload?.[0]?.payload as (typeof rows)[number] | undefined;
              return active && row ? (
                <TooltipBox title={row.name}>
                  <TooltipRow color={row.isBrand ? BRAND_COLOR : COMPETITOR_COLOR} name="Visibility" value={row.text} />
                </TooltipBox>
              ) : null;
            }}
          />
          <Bar dataKey="value" isAnimationActive={false} radius={[0, 4, 4, 0]} barSize={20}>
            {rows.map((row) => (
              <Cell key={row.name} fill={row.isBrand ? BRAND_COLOR : COMPETITOR_COLOR} />
            ))}
            <ErrorBar dataKey="error" direction="x" width={6} stroke="#18181b" strokeWidth={1.5} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
