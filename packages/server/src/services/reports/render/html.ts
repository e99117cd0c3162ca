import { escapeHtml } from "../../../lib/html.ts";
import { count } from "../../../lib/plural.ts";
import type { Summary } from "../../measurement/aggregate.ts";
import type { Report } from "../types.ts";
import { barChart, lineChart } from "./svg.ts";

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1c2330;background:#fff}
main{max-width:960px;margin:0 auto;padding:32px}h1{font-size:24px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 8px;border-bottom:1px solid #e2e5ea;padding-bottom:4px}
.meta{color:#5b6472;margin:0 0 24px}.tiles{display:grid;grid-template-columns:repeat(3,1fr);gap:12px}
.tile{border:1px solid #e2e5ea;border-radius:8px;padding:12px 14px}.tile b{display:block;font-size:22px}.tile span{color:#5b6472;font-size:12px}
figure{margin:16px 0;break-inside:avoid}figcaption{font-weight:600;margin-bottom:6px}svg.chart{width:100%;height:auto}
.grid{stroke:#e6e8ec;stroke-width:1}.axis,.legend,.label,.value{font-size:11px;fill:#3a4250}
table{width:100%;border-collapse:collapse;font-size:13px}th,td{text-align:left;border-bottom:1px solid #eceef2;padding:5px 8px}th{color:#5b6472;font-weight:600}
.none{color:#8a93a3}@media print{main{padding:0}h2{break-after:avoid}a{color:inherit}}
`;

const pct = (v: number | null) => (v === null ? "–" : `${(v * 100).toFixed(1)}%`);
const num = (v: number | null, digits = 1) => (v === null ? "–" : v.toFixed(digits));

function tiles(s: Summary): string {
  const tile = (label: string, value: string, note = "") =>
    `<div class="tile"><span>${escapeHtml(label)}</span><b>${escapeHtml(value)}</b><span>${escapeHtml(note)}</span></div>`;
  return `<div class="tiles">${[
    tile(
      "Visibility",
      pct(s.visibility.value),
      `95% CI ${pct(s.visibility.ci_low)}–${pct(s.visibility.ci_high)}, n = ${s.visibility.n}`,
    ),
    tile("Share of voice", pct(s.share_of_voice)),
    tile("Average position", num(s.average_position, 2)),
    tile("Sentiment score", num(s.sentiment_score), "0 to 100, 50 neutral"),
    tile("Citation rate", pct(s.citation_rate), `${s.brand_citations} of ${s.citations} citations`),
    tile("Visibility score", num(s.visibility_score), "0 to 100"),
  ].join("")}</div>`;
}

/**
 * One self-contained printable page: numbers, then inline SVG charts (visibility over time by
 * engine, share of voice against competitors, average position, top cited domains) and the period's
 * alerts. No scripts, no external resources.
 */
export function reportHtml(report: Report): string {
  const { data } = report;
  const overall = data.summary.overall;
  const engines = Object.keys(data.summary.by_engine);
  const dateLabel = (iso: string) => iso.slice(0, 10);
  const history = data.history;
  const visibilityOverTime = lineChart("Visibility over time, by engine", [
    { name: "All engines", points: history.map((p) => ({ label: dateLabel(p.at), value: p.visibility })) },
    ...engines.map((engine) => ({
      name: engine,
      points: history.map((p) => ({ label: dateLabel(p.at), value: p.by_engine[engine] ?? null })),
    })),
  ]);
  const share = barChart(
    "Share of voice against competitors",
    [
      { label: data.project.name, value: overall.share_of_voice, highlight: true },
      ...overall.competitors.map((c) => ({ label: c.name, value: c.share_of_voice })),
    ],
    1,
    (v) => `${(v * 100).toFixed(1)}%`,
  );
  const positions = barChart(
    "Average position by engine (1 is named first)",
    engines.map((engine) => ({
      label: engine,
      value: data.summary.by_engine[engine]?.average_position ?? null,
      highlight: true,
    })),
    Math.max(1, ...engines.map((e) => data.summary.by_engine[e]?.average_position ?? 0)),
    (v) => v.toFixed(2),
  );
  const domains = barChart(
    "Top cited domains",
    overall.top_cited_domains.map((d) => ({ label: d.domain, value: d.citations, highlight: d.brand })),
    Math.max(1, ...overall.top_cited_domains.map((d) => d.citations)),
    (v) => String(v),
  );
  const alerts =
    data.alerts.length === 0
      ? `<p class="none">No alert fired in this period.</p>`
      : `<table><thead><tr><th>When</th><th>Rule</th><th>Engine</th><th>What happened</th></tr></thead><tbody>${data.alerts
          .map(
            (a) =>
              `<tr><td>${escapeHtml(a.created_at.slice(0, 16).replace("T", " "))}</td><td>${escapeHtml(a.rule.type)}</td><td>${escapeHtml(a.engine ?? "all")}</td><td>${escapeHtml(a.message)}</td></tr>`,
          )
          .join("")}</tbody></table>`;
  const byEngine = `<table><thead><tr><th>Engine</th><th>Answers</th><th>Visibility</th><th>Share of voice</th><th>Avg position</th><th>Sentiment</th><th>Score</th></tr></thead><tbody>${engines
    .map((engine) => {
      const s = data.summary.by_engine[engine] as Summary;
      return `<tr><td>${escapeHtml(engine)}</td><td>${s.answers}</td><td>${pct(s.visibility.value)}</td><td>${pct(s.share_of_voice)}</td><td>${num(s.average_position, 2)}</td><td>${num(s.sentiment_score)}</td><td>${num(s.visibility_score)}</td></tr>`;
    })
    .join("")}</tbody></table>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(report.title)}</title><style>${STYLE}</style></head><body><main>
<h1>${escapeHtml(report.title)}</h1>
<p class="meta">${escapeHtml(data.project.name)} (${escapeHtml(data.project.primary_domain)}) · ${escapeHtml(report.period.start.slice(0, 16).replace("T", " "))} to ${escapeHtml(report.period.end.slice(0, 16).replace("T", " "))} UTC · ${count(overall.answers, "answer")} · report ${escapeHtml(report.id)}</p>
${tiles(overall)}
<h2>Over time</h2>${visibilityOverTime}
<h2>Against competitors</h2>${share}
<h2>By engine</h2>${byEngine}${positions}
<h2>Sources</h2>${domains}
<h2>Alerts</h2>${alerts}
</main></body></html>`;
}
