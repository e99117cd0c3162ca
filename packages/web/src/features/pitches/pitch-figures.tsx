import { useQuery } from "@tanstack/react-query";
import { FigureName, type MetricId } from "../../components/figure-hint.tsx";
import { percent, position, proportion } from "../../lib/figures.ts";
import { analysisQuery } from "../analyses/analyses-api.ts";
import type { Pitch } from "./pitches-api.ts";

function Figure({ id, value }: { id: MetricId; value: string }) {
  return (
    <div>
      <dt className="text-muted-foreground">
        <FigureName id={id} />
      </dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}

/** The prospect's headline figures from the pitch's analysis, as the report states them. */
export function PitchFigures({ pitch }: { pitch: Pitch }) {
  const analysis = useQuery({
    ...analysisQuery(pitch.workspace_id, pitch.analysis_id ?? ""),
    enabled: pitch.analysis_id !== null && (pitch.status === "ready" || pitch.status === "converted"),
  });
  const overall = analysis.data?.summary?.overall;
  // The report says it all: nothing here when the figures cannot be read.
  if (overall === undefined) return null;
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-3">
      <Figure id="visibility" value={proportion(overall.visibility)} />
      <Figure id="share_of_voice" value={percent(overall.share_of_voice)} />
      <Figure id="average_position" value={position(overall.average_position)} />
    </dl>
  );
}
