import type { ProjectMetrics } from "../services/analytics/metrics.ts";
import { percent, points, position, proportion, score, sentiment, signed } from "../services/glossary/format.ts";
import { GLOSSARY, type MetricId } from "../services/glossary/metrics.ts";
import { engineTitle } from "../services/labels.ts";

type Figures = ProjectMetrics["total"]["overall"]["figures"];
type Changes = ProjectMetrics["changes"];
type Change = Changes["visibility"];

/** Each figure of get_metrics: its glossary name, its JSON field, and how people read it and its change. */
const FIGURES: readonly {
  id: MetricId;
  field: keyof Changes;
  shown(figures: Figures): string;
  change(delta: number): string;
}[] = [
  { id: "visibility", field: "visibility", shown: (f) => proportion(f.visibility), change: points },
  { id: "share_of_voice", field: "share_of_voice", shown: (f) => percent(f.share_of_voice), change: points },
  { id: "average_position", field: "average_position", shown: (f) => position(f.average_position), change: signed },
  {
    id: "sentiment",
    field: "sentiment_score",
    shown: (f) => sentiment(f.sentiment_score),
    change: (delta) => `${signed(delta)} points`,
  },
  { id: "citation_rate", field: "citation_rate", shown: (f) => proportion(f.citation_rate), change: points },
  {
    id: "visibility_score",
    field: "visibility_score",
    shown: (f) => score(f.visibility_score),
    change: (delta) => `${signed(delta)} points`,
  },
];

/** The figures get_metrics carries, by their glossary ids and JSON fields: its description reads them from here. */
export const METRICS_FIGURES: readonly { id: MetricId; field: string }[] = FIGURES.map(({ id, field }) => ({
  id,
  field,
}));

function changeLine(change: Change, shown: (delta: number) => string): string {
  if (change.delta === null) return "no comparison";
  const verdict =
    change.significant === true ? ", statistically real" : change.significant === false ? ", within chance" : "";
  return `${shown(change.delta)}${verdict}`;
}

/** The day before an exclusive end: the period's last day, as the dashboard says it. */
function lastDay(iso: string): string {
  return new Date(Date.parse(iso) - 1).toISOString().slice(0, 10);
}

/**
 * get_metrics for people (and the models that quote them): the figures by their glossary names, in
 * the formats of the dashboard and the reports ("69.3 / 100"), engines by their names. The JSON
 * beside it keeps the API's fields, fractions and engine ids.
 */
export function metricsText(metrics: ProjectMetrics): string {
  const { overall, by_engine } = metrics.total;
  const lines = [
    `${overall.counts.answers} answers from ${metrics.from.slice(0, 10)} to ${lastDay(metrics.to)} (UTC), against ${metrics.previous.from.slice(0, 10)} to ${lastDay(metrics.previous.to)}:`,
    ...FIGURES.map(
      ({ id, field, shown, change }) =>
        `- ${GLOSSARY[id].name}: ${shown(overall.figures)}; ${changeLine(metrics.changes[field], change)}`,
    ),
  ];
  const engines = metrics.engines.flatMap((engine) => {
    const slice = by_engine[engine];
    if (slice === undefined) return [];
    const figures = FIGURES.map(({ id, shown }) => `${GLOSSARY[id].name} ${shown(slice.figures)}`).join(" · ");
    return [`- ${engineTitle(engine)}, ${slice.counts.answers} answers: ${figures}`];
  });
  if (engines.length > 0) lines.push("", "Per engine:", ...engines);
  const competitors = overall.competitors.map(
    (c) =>
      `- ${c.name}: ${GLOSSARY.visibility.name} ${proportion(c.visibility)} · ${GLOSSARY.share_of_voice.name} ${percent(c.share_of_voice)} · ${GLOSSARY.average_position.name} ${position(c.average_position)}`,
  );
  if (competitors.length > 0) lines.push("", "Competitors:", ...competitors);
  return lines.join("\n");
}
