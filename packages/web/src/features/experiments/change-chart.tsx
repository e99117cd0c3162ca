import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { percent } from "../../lib/figures.ts";
import { bucketLabel } from "../../lib/period.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { ChartCard } from "../charts/chart-card.tsx";
import { AXIS, GRID_COLOR, pct, TooltipBox, TooltipRow } from "../charts/chart-parts.tsx";
import { BRAND_COLOR } from "../charts/palette.ts";
import { markerLines, placeMarkers } from "./change-markers.tsx";
import type { Change } from "./experiments-api.ts";

const TREATED_COLOR = BRAND_COLOR;
const CONTROL_COLOR = "#a16207";
const DAY_MS = 86_400_000;

/** Every UTC day of the change's window, YYYY-MM-DD: days without answers are gaps the lines bridge. */
function windowDays(change: Change): string[] {
  const first = Date.parse(`${change.window.before_from.slice(0, 10)}T00:00:00Z`);
  const last = Date.parse(`${change.window.after_to.slice(0, 10)}T00:00:00Z`);
  const days: string[] = [];
  for (let at = first; at <= last && days.length < 120; at += DAY_MS)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

/**
 * Treated against control visibility per day over the change's window, with the change marked: the
 * lines should move together before it, and apart after it if the change worked.
 */
export function ChangeChart({ change }: { change: Change }) {
  const { project } = useBrand();
  const byDay = new Map(change.series.map((point) => [point.day, point]));
  const data = windowDays(change).map((day) => {
    const point = byDay.get(day);
    return {
      day,
      label: bucketLabel(`${day}T00:00:00Z`, "day"),
      treated: pct(point?.treated),
      control: pct(point?.control),
      treatedAnswers: point?.treated_answers ?? 0,
      controlAnswers: point?.control_answers ?? 0,
    };
  });
  const changeDay = change.changed_at.slice(0, 10);
  const placed = placeMarkers([{ id: change.id, title: change.title, changedAt: change.changed_at }], (iso) => {
    const day = iso.slice(0, 10);
    return data.some((row) => row.day === day) ? bucketLabel(`${day}T00:00:00Z`, "day") : null;
  });
  const measured = change.series.length;
  const overall = change.visibility.overall;
  return (
    <ChartCard
      id="change-chart"
      title="Treated against control, per day"
      figure="visibility"
      description={`Visibility of ${project.name} in the answers to the treated prompts and to the control prompts, each UTC day; the dashed line is the change (${changeDay}).`}
      subtitle={`${project.name} · ${change.title} · ${change.window.before_from.slice(0, 10)} to ${change.window.after_to.slice(0, 10)} (UTC days)`}
      legend={[
        { name: "Treated prompts", color: TREATED_COLOR },
        { name: "Control prompts", color: CONTROL_COLOR },
      ]}
      table={{
        columns: [
          "Day (UTC)",
          "Treated visibility (%)",
          "Treated answers (n)",
          "Control visibility (%)",
          "Control answers (n)",
        ],
        rows: change.series.map((p) => [p.day, pct(p.treated), p.treated_answers, pct(p.control), p.control_answers]),
      }}
      filename={`${project.name} ${change.title} treated vs control`}
      summary={`Line chart of visibility per day, treated prompts against control prompts, over ${data.length} days with the change on ${changeDay}. Treated: ${percent(overall.treated.before)} before, ${percent(overall.treated.after)} after; control: ${percent(overall.control.before)} before, ${percent(overall.control.after)} after.`}
      note={
        measured === 0
          ? "No answers yet in the window: the lines appear as analyses run."
          : "Days without answers are bridged; hover a day for its answers."
      }
    >
      <ResponsiveContainer width="100%" height={280}>
        <LineChart data={data} margin={{ top: 12, right: 12, bottom: 0, left: -8 }} accessibilityLayer={false}>
          <CartesianGrid stroke={GRID_COLOR} vertical={false} />
          <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={{ stroke: GRID_COLOR }} minTickGap={24} />
          <YAxis domain={[0, 100]} tick={AXIS} tickLine={false} axisLine={false} unit="%" width={48} />
          <Tooltip
            content={({ active, payload, label }) => {
              const row = payload?.[0]?.payload as (typeof data)[number] | undefined;
              return active && row ? (
                <TooltipBox title={`${label} (UTC)`}>
                  <TooltipRow
                    color={TREATED_COLOR}
                    name="Treated"
                    value={row.treated === null ? "no answers" : `${row.treated}% (n = ${row.treatedAnswers})`}
                  />
                  <TooltipRow
                    color={CONTROL_COLOR}
                    name="Control"
                    value={row.control === null ? "no answers" : `${row.control}% (n = ${row.controlAnswers})`}
                  />
                </TooltipBox>
              ) : null;
            }}
          />
          <Line
            dataKey="treated"
            name="Treated prompts"
            stroke={TREATED_COLOR}
            strokeWidth={2.5}
            dot={{ r: 3, fill: TREATED_COLOR }}
            isAnimationActive={false}
            connectNulls
          />
          <Line
            dataKey="control"
            name="Control prompts"
            stroke={CONTROL_COLOR}
            strokeWidth={2}
            strokeDasharray="5 3"
            dot={{ r: 3, fill: CONTROL_COLOR }}
            isAnimationActive={false}
            connectNulls
          />
          {markerLines(placed)}
        </LineChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
