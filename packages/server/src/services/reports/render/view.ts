import { ownValue } from "../../../lib/own-keys.ts";
import { count } from "../../../lib/plural.ts";
import { surfaceOf } from "../../engines/catalog.ts";
import { CATEGORY_LABELS } from "../../labels.ts";
import type { Summary } from "../../measurement/aggregate.ts";
import type { Report } from "../types.ts";

/**
 * What a report shows, once, as text and numbers: the HTML page and the PDF are two drawings of
 * this, so they never disagree on a figure, a label or an order.
 */

interface Tile {
  label: string;
  value: string;
  note: string;
}

export interface Series {
  name: string;
  points: { label: string; value: number | null }[];
}

export interface LineChartView {
  title: string;
  series: Series[];
  max: number;
  format: (v: number) => string;
}

export interface BarChartView {
  title: string;
  bars: { label: string; value: number | null; highlight?: boolean }[];
  max: number;
  format: (v: number) => string;
}

export interface TableView {
  head: string[];
  rows: string[][];
}

export interface ReportView {
  title: string;
  meta: string;
  tiles: Tile[];
  overTime: LineChartView;
  share: BarChartView;
  byEngine: TableView;
  positions: BarChartView;
  /** Null when the report asked no product on both surfaces. */
  surfaces: { note: string; table: TableView } | null;
  domains: BarChartView;
  /** Null for reports stored before citation categories. */
  kinds: BarChartView | null;
  /** Null when no alert fired in the period. */
  alerts: TableView | null;
}

const pct = (v: number | null) => (v === null ? "–" : `${(v * 100).toFixed(1)}%`);
const num = (v: number | null, digits = 1) => (v === null ? "–" : v.toFixed(digits));
const points = (v: number | null) => (v === null ? "–" : `${v > 0 ? "+" : ""}${(v * 100).toFixed(1)} pts`);
const interval = (p: { value: number | null; ci_low: number | null; ci_high: number | null; n: number }) =>
  `${pct(p.value)} (${pct(p.ci_low)}–${pct(p.ci_high)}, n = ${p.n})`;
const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

function tiles(s: Summary): Tile[] {
  return [
    {
      label: "Visibility",
      value: pct(s.visibility.value),
      note: `95% CI ${pct(s.visibility.ci_low)}–${pct(s.visibility.ci_high)}, n = ${s.visibility.n}`,
    },
    { label: "Share of voice", value: pct(s.share_of_voice), note: "" },
    { label: "Average position", value: num(s.average_position, 2), note: "" },
    { label: "Sentiment score", value: num(s.sentiment_score), note: "0 to 100, 50 neutral" },
    // A share of answers (those citing the brand among those citing anything); the count of citations
    // is another figure, said with its own share, never as the rate's numerator and denominator.
    {
      label: "Citation rate",
      value: pct(s.citation_rate),
      note: `of the answers citing sources; ${s.brand_citations} of ${s.citations} citations are the brand's (${pct(s.citation_share)})`,
    },
    { label: "Visibility score", value: num(s.visibility_score), note: "0 to 100" },
  ];
}

export function reportView(report: Report): ReportView {
  const { data } = report;
  const overall = data.summary.overall;
  const engines = Object.keys(data.summary.by_engine);
  const byEngine = (engine: string) => data.summary.by_engine[engine] as Summary;
  const history = data.history;
  const pairs = data.summary.surfaces ?? [];
  // Each answer's cited domains once, by the kind of site.
  const kinds = new Map(Object.entries(data.cited_kinds));
  return {
    title: report.title,
    meta: `${data.project.name} (${data.project.primary_domain}) · ${when(report.period.start)} to ${when(report.period.end)} UTC · ${count(overall.answers, "answer")} · report ${report.id}`,
    tiles: tiles(overall),
    overTime: {
      title: "Visibility over time, by engine",
      series: [
        { name: "All engines", points: history.map((p) => ({ label: p.at.slice(0, 10), value: p.visibility })) },
        ...engines.map((engine) => ({
          name: engine,
          points: history.map((p) => ({ label: p.at.slice(0, 10), value: ownValue(p.by_engine, engine) ?? null })),
        })),
      ],
      max: 1,
      format: (v) => `${Math.round(v * 100)}%`,
    },
    share: {
      title: "Share of voice against competitors",
      bars: [
        { label: data.project.name, value: overall.share_of_voice, highlight: true },
        ...overall.competitors.map((c) => ({ label: c.name, value: c.share_of_voice })),
      ],
      max: 1,
      format: (v) => `${(v * 100).toFixed(1)}%`,
    },
    byEngine: {
      head: ["Engine", "Surface", "Answers", "Visibility", "Share of voice", "Avg position", "Sentiment", "Score"],
      rows: engines.map((engine) => {
        const s = byEngine(engine);
        return [
          engine,
          surfaceOf(engine),
          String(s.answers),
          pct(s.visibility.value),
          pct(s.share_of_voice),
          num(s.average_position, 2),
          num(s.sentiment_score),
          num(s.visibility_score),
        ];
      }),
    },
    positions: {
      title: "Average position by engine (1 is named first)",
      bars: engines.map((engine) => ({ label: engine, value: byEngine(engine).average_position, highlight: true })),
      max: Math.max(1, ...engines.map((e) => byEngine(e).average_position ?? 0)),
      format: (v) => v.toFixed(2),
    },
    surfaces:
      pairs.length === 0
        ? null
        : {
            note: "The brand's visibility when the product is asked through its API and as a person sees it in the product's own interface. A difference is statistically real when a two-proportion test gives p < 0.05.",
            table: {
              head: [
                "API engine",
                "Web engine",
                "API visibility",
                "Web visibility",
                "Difference",
                "p",
                "Statistically real",
              ],
              rows: pairs.map((c) => [
                c.api_engine,
                c.web_engine,
                interval(c.api),
                interval(c.web),
                points(c.difference),
                c.p_value === null ? "–" : c.p_value < 0.0001 ? "< 0.0001" : c.p_value.toFixed(4),
                c.significant ? "Yes" : "No",
              ]),
            },
          },
    domains: {
      title: "Top cited domains",
      bars: overall.top_cited_domains.map((d) => ({ label: d.domain, value: d.citations, highlight: d.brand })),
      max: Math.max(1, ...overall.top_cited_domains.map((d) => d.citations)),
      format: (v) => String(v),
    },
    kinds:
      kinds.size === 0
        ? null
        : {
            title: "Cited sites by kind (once per answer)",
            bars: [...kinds.entries()]
              .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
              .map(([category, n]) => ({
                label: ownValue(CATEGORY_LABELS, category) ?? category,
                value: n,
                highlight: category === "owned",
              })),
            max: Math.max(1, ...kinds.values()),
            format: (v) => String(v),
          },
    alerts:
      data.alerts.length === 0
        ? null
        : {
            head: ["When", "Rule", "Engine", "What happened"],
            rows: data.alerts.map((a) => [when(a.created_at), a.rule.type, a.engine ?? "all", a.message]),
          },
  };
}
