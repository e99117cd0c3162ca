import { escapeHtml } from "../../../lib/html.ts";
import type { Report } from "../types.ts";
import { barChart, lineChart } from "./svg.ts";
import { type BarChartView, type LineChartView, reportView, type TableView } from "./view.ts";

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

const line = (chart: LineChartView) => lineChart(chart.title, chart.series, chart.max, chart.format);
const bars = (chart: BarChartView) => barChart(chart.title, chart.bars, chart.max, chart.format);

function table({ head, rows }: TableView): string {
  const cells = (tag: "th" | "td", values: string[]) =>
    values.map((value) => `<${tag}>${escapeHtml(value)}</${tag}>`).join("");
  return `<table><thead><tr>${cells("th", head)}</tr></thead><tbody>${rows
    .map((row) => `<tr>${cells("td", row)}</tr>`)
    .join("")}</tbody></table>`;
}

/**
 * One self-contained printable page: numbers, then inline SVG charts (visibility over time by
 * engine, share of voice against competitors, average position, the API-vs-web comparison, top
 * cited domains and their kinds) and the period's alerts. No scripts, no external resources.
 */
export function reportHtml(report: Report): string {
  const view = reportView(report);
  const tiles = view.tiles
    .map(
      (t) =>
        `<div class="tile"><span>${escapeHtml(t.label)}</span><b>${escapeHtml(t.value)}</b><span>${escapeHtml(t.note)}</span></div>`,
    )
    .join("");
  const surfaces =
    view.surfaces === null
      ? ""
      : `<h2>API vs web</h2><p class="meta">${escapeHtml(view.surfaces.note)}</p>${table(view.surfaces.table)}`;
  const alerts = view.alerts === null ? `<p class="none">No alert fired in this period.</p>` : table(view.alerts);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(view.title)}</title><style>${STYLE}</style></head><body><main>
<h1>${escapeHtml(view.title)}</h1>
<p class="meta">${escapeHtml(view.meta)}</p>
<div class="tiles">${tiles}</div>
<h2>Over time</h2>${line(view.overTime)}
<h2>Against competitors</h2>${bars(view.share)}
<h2>By engine</h2>${table(view.byEngine)}${bars(view.positions)}${surfaces}
<h2>Sources</h2>${bars(view.domains)}${view.kinds === null ? "" : bars(view.kinds)}
<h2>Alerts</h2>${alerts}
</main></body></html>`;
}
