import { ownValue } from "../../../lib/own-keys.ts";
import { count } from "../../../lib/plural.ts";
import type { Branding } from "../../branding/types.ts";
import { surfaceOf } from "../../engines/catalog.ts";
import * as f from "../../glossary/format.ts";
import { GLOSSARY } from "../../glossary/metrics.ts";
import { CATEGORY_LABELS, engineTitle, SURFACE_TITLES } from "../../labels.ts";
import { compareIntervals, type Proportion, proportion, type Summary } from "../../measurement/aggregate.ts";
import { ruleCondition } from "../../monitoring/rule-words.ts";
import { engineList } from "../titles.ts";
import type { Report } from "../types.ts";
import { type AudiencesView, audiencesView, type ConversationsView, conversationsView } from "./conversations-view.ts";
import { type ExperimentsView, experimentsView } from "./experiments-view.ts";
import { type TrafficView, trafficView } from "./traffic-view.ts";

/**
 * What a report shows, once, as text and numbers: the HTML page and the PDF are two drawings of
 * this, so they never disagree on a figure, a label or an order. Every figure carries its glossary
 * name and is printed by the glossary's formatter, as the dashboard prints it; people read engines
 * and surfaces by their names, never by ids (issue 24).
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
  /** Who sends the report: the workspace's name, logo and colours. */
  brand: Branding;
  /** The chart colours: the brand's primary and accent first. */
  palette: string[];
  /** The executive summary: sentences written from the figures, then the recommended next step. */
  summary: string[];
  recommendation: string;
  tiles: Tile[];
  /** This period against the one before; null when there was none. */
  changes: { note: string; table: TableView } | null;
  overTime: LineChartView;
  share: BarChartView;
  engines: { note: string; table: TableView };
  positions: BarChartView;
  /** Each prompt's figures, the most visible first (at most PROMPT_ROWS). */
  prompts: { note: string; table: TableView };
  /** Null when the report asked no product on both surfaces. */
  surfaces: { note: string; table: TableView } | null;
  domains: BarChartView;
  /** Null for reports stored before citation categories. */
  kinds: BarChartView | null;
  /** The biggest opportunities with their evidence; empty when none stands out. */
  opportunities: { title: string; detail: string }[];
  /** The brand's finished experiments; null when the report has none (issue 27). */
  experiments: ExperimentsView | null;
  /** The brand's AI crawlers and referrals; null when the report has none (issue 26). */
  traffic: TrafficView | null;
  /** Its conversation scripts' figures; null when none ended in the period (issue 29). */
  conversations: ConversationsView | null;
  /** Visibility per persona and per country; null when there is nothing to compare (issue 29). */
  audiences: AudiencesView | null;
  /** Null when no alert fired in the period. */
  alerts: TableView | null;
  /** "Made with Sightline", or null when the workspace asks for its own brand only. */
  credit: string | null;
}

/** The prompts a report lists; the rest are counted in a note. */
const PROMPT_ROWS = 50;

/** After the brand's two: hues far from each other, none a pure green or blue a brand often is. */
const OTHER_COLOURS = ["#7e57c2", "#c0a000", "#00838f", "#b3261e", "#6d4c41", "#ec407a", "#455a64", "#8d6e63"];

const G = GLOSSARY;
const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** "47% (38–56%, n = 30)" or "–" for no answers. */
const withInterval = (p: Proportion) => (p.n === 0 ? "–" : f.proportion(p));

/** The answers of `all` that are not `part`'s, as a share with its interval. */
const rest = (all: Proportion, part: Proportion) => proportion(all.count - part.count, all.n - part.n);

/** "statistically real" when two shares' 95% intervals do not overlap (the glossary's rule). */
function real(a: Proportion, b: Proportion): boolean {
  return compareIntervals(a, b) !== "overlap";
}

/** All tracked brands' mentions: the share of voice's denominator. */
const mentions = (s: Summary) => s.visibility.count + s.competitors.reduce((sum, c) => sum + c.mentioned, 0);

/** A share from its counts: the figure and its "x of y" note are one division, rounded once. */
const share = (part: number, whole: number, stored: number | null) => (whole === 0 ? stored : part / whole);

function tiles(s: Summary): Tile[] {
  const named = count(s.visibility.count, "answer");
  return [
    {
      label: G.visibility.name,
      value: f.percent(share(s.visibility.count, s.visibility.n, s.visibility.value)),
      note: `${s.visibility.count} of ${count(s.visibility.n, "answer")} name the brand; 95% interval ${f.interval(s.visibility)}`,
    },
    {
      label: G.share_of_voice.name,
      value: f.percent(share(s.visibility.count, mentions(s), s.share_of_voice)),
      note: `${s.visibility.count} of ${count(mentions(s), "mention")} of tracked brands`,
    },
    {
      label: G.average_position.name,
      value: f.position(s.average_position),
      note: `#1 = named first; over the ${named} naming the brand`,
    },
    {
      label: G.sentiment.name,
      value: f.sentiment(s.sentiment_score),
      note: `0 negative, 50 neutral, 100 positive; over the ${named} naming the brand`,
    },
    {
      label: G.citation_rate.name,
      value: f.percent(s.citation_rate),
      note: "of the answers citing sources cite the brand's site",
    },
    {
      label: G.citation_share.name,
      value: f.percent(share(s.brand_citations, s.citations, s.citation_share)),
      note: `${s.brand_citations} of ${count(s.citations, "citation")} point at the brand's site`,
    },
    {
      label: G.visibility_score.name,
      value: f.score(s.visibility_score),
      note: `0 to 100; the average of ${count(s.answers, "answer")}`,
    },
  ];
}

/** A difference of two figures in words: "+12 pts", "−0.4", "±0". */
function delta(now: number | null, before: number | null, as: (d: number) => string): string {
  return now === null || before === null ? "–" : as(now - before);
}

function changes(now: Summary, before: Summary): TableView {
  const visibilityReal = before.visibility.n > 0 && now.visibility.n > 0 && real(now.visibility, before.visibility);
  return {
    head: ["Figure", "This period", "Previous period", "Change", "Statistically real"],
    rows: [
      [
        G.visibility.name,
        withInterval(now.visibility),
        withInterval(before.visibility),
        delta(now.visibility.value, before.visibility.value, f.points),
        before.visibility.n === 0 || now.visibility.n === 0
          ? "–"
          : visibilityReal
            ? "Yes: the 95% intervals do not overlap"
            : "No: the 95% intervals overlap",
      ],
      [
        G.share_of_voice.name,
        f.percent(now.share_of_voice),
        f.percent(before.share_of_voice),
        delta(now.share_of_voice, before.share_of_voice, f.points),
        "Not tested",
      ],
      [
        G.average_position.name,
        f.position(now.average_position),
        f.position(before.average_position),
        delta(now.average_position, before.average_position, (d) => f.signed(d)),
        "Not tested",
      ],
      [
        G.sentiment.name,
        f.sentiment(now.sentiment_score),
        f.sentiment(before.sentiment_score),
        delta(now.sentiment_score, before.sentiment_score, (d) => `${f.signed(d)} points`),
        "Not tested",
      ],
      [
        G.citation_rate.name,
        f.percent(now.citation_rate),
        f.percent(before.citation_rate),
        delta(now.citation_rate, before.citation_rate, f.points),
        "Not tested",
      ],
      [
        G.visibility_score.name,
        f.score(now.visibility_score),
        f.score(before.visibility_score),
        delta(now.visibility_score, before.visibility_score, (d) => `${f.signed(d)} points`),
        "Not tested",
      ],
    ],
  };
}

/** Each engine against the others, and against its previous period. */
function engineTable(report: Report, engines: string[]): TableView {
  const { data } = report;
  const overall = data.summary.overall;
  return {
    head: [
      "Engine",
      "Answers",
      `${G.visibility.name} (95% interval, n)`,
      "Against the other engines",
      "Change since the previous period",
      G.share_of_voice.name,
      G.average_position.name,
      G.sentiment.name,
      G.visibility_score.name,
    ],
    rows: engines.map((engine) => {
      const s = data.summary.by_engine[engine] as Summary;
      const others = rest(overall.visibility, s.visibility);
      const against =
        engines.length < 2 || others.n === 0 || s.visibility.n === 0
          ? "–"
          : !real(s.visibility, others)
            ? "In line"
            : compareIntervals(s.visibility, others) === "above"
              ? "Above (statistically real)"
              : "Below (statistically real)";
      const was = ownValue(data.previous?.by_engine, engine);
      const change =
        was === undefined || was.visibility.n === 0 || s.visibility.n === 0
          ? "–"
          : `${f.points((s.visibility.value ?? 0) - (was.visibility.value ?? 0))}${real(s.visibility, was.visibility) ? " (statistically real)" : ""}`;
      return [
        engineTitle(engine),
        String(s.answers),
        withInterval(s.visibility),
        against,
        change,
        f.percent(s.share_of_voice),
        f.position(s.average_position),
        f.sentiment(s.sentiment_score),
        f.score(s.visibility_score),
      ];
    }),
  };
}

function promptTable(report: Report): { note: string; table: TableView } {
  const all = [...report.data.summary.by_prompt].sort(
    (a, b) =>
      (b.summary.visibility.value ?? -1) - (a.summary.visibility.value ?? -1) || a.prompt.localeCompare(b.prompt),
  );
  const shown = all.slice(0, PROMPT_ROWS);
  return {
    note:
      all.length > shown.length
        ? `The ${shown.length} most visible of ${count(all.length, "prompt")}; the CSV has every answer.`
        : `Every prompt asked, the most visible first.`,
    table: {
      head: [
        "Prompt",
        "Answers",
        `${G.visibility.name} (95% interval, n)`,
        G.average_position.name,
        G.sentiment.name,
        G.visibility_score.name,
      ],
      rows: shown.map(({ prompt, summary: s }) => [
        prompt,
        String(s.answers),
        withInterval(s.visibility),
        f.position(s.average_position),
        f.sentiment(s.sentiment_score),
        f.score(s.visibility_score),
      ]),
    },
  };
}

/** The executive summary's sentences, from the figures alone. */
function summary(report: Report, engines: string[]): string[] {
  const { data } = report;
  const overall = data.summary.overall;
  const brand = data.project.name;
  const out: string[] = [];
  if (overall.visibility.n === 0) {
    out.push(`No engine answered in this period, so there is nothing to measure yet.`);
    return out;
  }
  out.push(
    `${brand} was named in ${f.percent(overall.visibility.value)} of ${count(overall.visibility.n, "answer")} from ${engineList(engines)} (95% interval ${f.interval(overall.visibility)}), with a share of voice of ${f.percent(overall.share_of_voice)} against ${count(data.project.competitors.length, "competitor")}.`,
  );
  const before = data.previous?.overall;
  if (before === undefined || before.visibility.n === 0) {
    out.push("This is the first period measured: the next report will say what changed.");
  } else {
    const d = (overall.visibility.value ?? 0) - (before.visibility.value ?? 0);
    const moved = Math.round(d * 1000) === 0 ? "held at" : d > 0 ? "rose" : "fell";
    const by = moved === "held at" ? "" : ` ${f.points(Math.abs(d)).replace(/^[+−]/, "")}`;
    out.push(
      `Since the previous period (${day.format(new Date(data.previous?.end ?? report.period.start))}), visibility ${moved === "held at" ? `held at ${f.percent(overall.visibility.value)}` : `${moved}${by}, from ${f.percent(before.visibility.value)} to ${f.percent(overall.visibility.value)}`}: ${
        real(overall.visibility, before.visibility)
          ? "a statistically real change (the two 95% intervals do not overlap)."
          : "within what chance alone can do (the two 95% intervals overlap), so not yet a real change."
      }`,
    );
  }
  const ranked = engines
    .map((engine) => ({ engine, s: data.summary.by_engine[engine] as Summary }))
    .filter((e) => e.s.visibility.n > 0)
    .sort((a, b) => (b.s.visibility.value ?? 0) - (a.s.visibility.value ?? 0) || a.engine.localeCompare(b.engine));
  const best = ranked[0];
  const worst = ranked[ranked.length - 1];
  if (best !== undefined && worst !== undefined && best !== worst) {
    out.push(
      `Strongest on ${engineTitle(best.engine)} (${f.proportion(best.s.visibility)}), weakest on ${engineTitle(worst.engine)} (${f.proportion(worst.s.visibility)}): ${
        real(best.s.visibility, worst.s.visibility)
          ? "a statistically real difference."
          : "a difference chance alone could make at these numbers of answers."
      }`,
    );
  } else if (best !== undefined) {
    out.push(`All answers came from ${engineTitle(best.engine)}.`);
  }
  const top = data.opportunities ?? [];
  if (top.length > 0) {
    out.push(
      `The ${top.length === 1 ? "biggest opportunity" : `${top.length} biggest opportunities`}: ${top
        .map(
          (o, i) =>
            `${top.length === 1 ? "" : `${i + 1}. `}${o.title} (${G.opportunity_impact.name.toLowerCase()} ${f.percent(o.impact)}, ${count(o.answers, "answer")} on ${engineList(o.engines)})`,
        )
        .join("; ")}.`,
    );
  }
  return out;
}

function recommendation(report: Report, engines: string[]): string {
  const first = report.data.opportunities?.[0];
  if (first !== undefined) return `Recommended next step: ${first.title.replace(/\.?$/, ".")}`;
  const weakest = engines
    .map((engine) => ({ engine, s: report.data.summary.by_engine[engine] as Summary }))
    .filter((e) => e.s.visibility.n > 0)
    .sort((a, b) => (a.s.visibility.value ?? 0) - (b.s.visibility.value ?? 0))[0];
  return weakest === undefined || engines.length < 2
    ? "Recommended next step: keep measuring; no opportunity stands out in these answers."
    : `Recommended next step: no single opportunity stands out; look at the answers of ${engineTitle(weakest.engine)}, where the brand is named least.`;
}

export function reportView(report: Report, brand: Branding): ReportView {
  const { data } = report;
  const overall = data.summary.overall;
  const engines = Object.keys(data.summary.by_engine);
  const byEngine = (engine: string) => data.summary.by_engine[engine] as Summary;
  const history = data.history;
  const pairs = data.summary.surfaces ?? [];
  // Each answer's cited domains once, by the kind of site.
  const kinds = new Map(Object.entries(data.cited_kinds));
  const previous = data.previous ?? null;
  return {
    title: report.title,
    meta: `${data.project.name} (${data.project.primary_domain}) · ${when(report.period.start)} to ${when(report.period.end)} · ${count(overall.answers, "answer")} · prepared by ${brand.name}`,
    brand,
    palette: [brand.primary, brand.accent, ...OTHER_COLOURS],
    summary: summary(report, engines),
    recommendation: recommendation(report, engines),
    tiles: tiles(overall),
    changes:
      previous === null
        ? null
        : {
            note: `Against the previous period, ${when(previous.start)} to ${when(previous.end)}. ${G.visibility.significance}`,
            table: changes(overall, previous.overall),
          },
    overTime: {
      title: `${G.visibility.name} over time, by engine`,
      series: [
        { name: "All engines", points: history.map((p) => ({ label: p.at.slice(0, 10), value: p.visibility })) },
        ...engines.map((engine) => ({
          name: engineTitle(engine),
          points: history.map((p) => ({ label: p.at.slice(0, 10), value: ownValue(p.by_engine, engine) ?? null })),
        })),
      ],
      max: 1,
      format: (v) => `${Math.round(v * 100)}%`,
    },
    share: {
      title: `${G.share_of_voice.name} against competitors`,
      bars: [
        { label: data.project.name, value: overall.share_of_voice, highlight: true },
        ...overall.competitors.map((c) => ({ label: c.name, value: c.share_of_voice })),
      ],
      max: 1,
      format: f.percent,
    },
    engines: {
      note: `Each engine's ${G.visibility.name.toLowerCase()} against the answers of all the other engines, and against its own previous period. ${G.visibility.significance}`,
      table: engineTable(report, engines),
    },
    positions: {
      title: `${G.average_position.name} by engine (#1 = named first)`,
      bars: engines.map((engine) => ({
        label: engineTitle(engine),
        value: byEngine(engine).average_position,
        highlight: true,
      })),
      max: Math.max(1, ...engines.map((e) => byEngine(e).average_position ?? 0)),
      format: f.position,
    },
    prompts: promptTable(report),
    surfaces:
      pairs.length === 0
        ? null
        : {
            note: `The brand's ${G.visibility.name.toLowerCase()} when the product is asked through its API and as a person sees it in the product's own interface. A difference is statistically real when a two-proportion test gives p < 0.05.`,
            table: {
              head: [
                "Product",
                `${SURFACE_TITLES.api}: ${G.visibility.name.toLowerCase()}`,
                `${SURFACE_TITLES.web}: ${G.visibility.name.toLowerCase()}`,
                "Difference",
                "p",
                "Statistically real",
              ],
              rows: pairs.map((c) => [
                `${engineTitle(c.api_engine)} and ${engineTitle(c.web_engine)}`,
                withInterval(c.api),
                withInterval(c.web),
                f.points(c.difference),
                c.p_value === null ? "–" : c.p_value < 0.0001 ? "< 0.0001" : c.p_value.toFixed(4),
                c.significant ? "Yes" : "No",
              ]),
            },
          },
    domains: {
      title: "Top cited domains (citations)",
      bars: overall.top_cited_domains.map((d) => ({ label: d.domain, value: d.citations, highlight: d.brand })),
      max: Math.max(1, ...overall.top_cited_domains.map((d) => d.citations)),
      format: (v) => String(v),
    },
    kinds:
      kinds.size === 0
        ? null
        : {
            title: "Cited sites by kind (answers citing each kind)",
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
    opportunities: (data.opportunities ?? []).map((o) => ({
      title: o.title,
      detail: `${o.explanation} ${G.opportunity_impact.name} ${f.percent(o.impact)}: ${count(o.answers, "answer")} on ${engineList(o.engines)}.`,
    })),
    experiments: experimentsView(data.experiments),
    conversations: conversationsView(data.conversations),
    audiences: audiencesView(data.audiences),
    traffic: trafficView(data.traffic),
    alerts:
      data.alerts.length === 0
        ? null
        : {
            head: ["When", "Rule", "Engine", "What happened"],
            rows: data.alerts.map((a) => [
              when(a.created_at),
              ruleCondition(a.rule),
              a.engine === null ? "All engines" : `${engineTitle(a.engine)} (${SURFACE_TITLES[surfaceOf(a.engine)]})`,
              a.message,
            ]),
          },
    credit: brand.show_sightline ? "Made with Sightline, the open AI visibility platform." : null,
  };
}
