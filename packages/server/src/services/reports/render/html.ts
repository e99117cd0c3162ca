import { escapeHtml } from "../../../lib/html.ts";
import type { Branding } from "../../branding/types.ts";
import type { Report } from "../types.ts";
import { barChart, lineChart } from "./svg.ts";
import { type BarChartView, type LineChartView, reportView, type TableView } from "./view.ts";

/** `#rrggbb` only: a colour goes into the page's style, so nothing else may. */
const colour = (value: string, fallback: string) => (/^#[0-9a-f]{6}$/i.test(value) ? value : fallback);

function style(brand: Branding): string {
  const primary = colour(brand.primary, "#2456d6");
  const accent = colour(brand.accent, "#d2691e");
  return `
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,Segoe UI,Roboto,"Noto Sans","Noto Sans JP",sans-serif;color:#1c2330;background:#fff}
main{max-width:960px;margin:0 auto;padding:32px}header{display:flex;align-items:center;gap:12px;border-bottom:3px solid ${primary};padding-bottom:12px;margin-bottom:16px}
header img{max-height:48px;max-width:180px}header .sender{font-weight:600;color:${primary}}
h1{font-size:24px;margin:0 0 4px;color:${primary}}h2{font-size:17px;margin:32px 0 8px;border-bottom:1px solid #e2e5ea;padding-bottom:4px;color:${primary}}
.meta{color:#5b6472;margin:0 0 16px}.summary{background:#f6f7f9;border-left:4px solid ${accent};padding:12px 16px;border-radius:6px}
.summary p{margin:0 0 8px}.summary .next{font-weight:600;margin:0}
.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:12px}
.tile{border:1px solid #e2e5ea;border-radius:8px;padding:12px 14px}.tile b{display:block;font-size:22px}.tile span{color:#5b6472;font-size:12px}
figure{margin:16px 0;break-inside:avoid}figcaption{font-weight:600;margin-bottom:6px}svg.chart{width:100%;height:auto}
.grid{stroke:#e6e8ec;stroke-width:1}.axis,.legend,.label,.value{font-size:11px;fill:#3a4250}
.scroll{overflow-x:auto}table{width:100%;border-collapse:collapse;font-size:13px}th,td{text-align:left;border-bottom:1px solid #eceef2;padding:5px 8px;vertical-align:top}th{color:#5b6472;font-weight:600}
ol.opportunities{padding-left:20px}ol.opportunities li{margin-bottom:8px}ul.traffic{padding-left:20px}ul.traffic li{margin-bottom:4px}
ul.experiments{padding-left:20px}ul.experiments li{margin-bottom:10px}ul.experiments .meta{margin:0}
.warning{border-left:4px solid #b3261e;background:#fdf3f2;padding:8px 12px;border-radius:6px;margin:8px 0}
.none{color:#5f6877}footer{margin-top:32px;color:#5f6877;font-size:12px}
@media (max-width:640px){main{padding:16px}h1{font-size:20px}
table{width:auto;min-width:100%}th,td{white-space:nowrap}th:first-child,td:first-child{white-space:normal;min-width:11em;max-width:16em}}
@media print{main{padding:0}h2{break-after:avoid}a{color:inherit}.scroll{overflow:visible}}
`;
}

function table({ head, rows }: TableView, label: string): string {
  const cells = (tag: "th" | "td", values: string[]) =>
    values.map((value) => `<${tag}>${escapeHtml(value)}</${tag}>`).join("");
  // A wide table scrolls inside its own box on a phone, reachable by keyboard.
  return `<div class="scroll" tabindex="0" role="region" aria-label="${escapeHtml(label)}"><table><thead><tr>${cells("th", head)}</tr></thead><tbody>${rows
    .map((row) => `<tr>${cells("td", row)}</tr>`)
    .join("")}</tbody></table></div>`;
}

/** A logo goes into an `<img>` only as a PNG or JPEG data URL (the page loads nothing else). */
const logoSource = (logo: string | null) =>
  logo !== null && /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/.test(logo) ? logo : null;

/**
 * One self-contained printable page, in the workspace's name and colours: the executive summary,
 * the figures (this period against the previous, each engine against the others), inline SVG
 * charts, the opportunities with their evidence, the brand's finished experiments and its AI
 * crawlers and referrals (when it has any), and the period's alerts. No scripts, no external
 * resources.
 */
export function reportHtml(report: Report, brand: Branding): string {
  const view = reportView(report, brand);
  const palette = view.palette;
  const line = (chart: LineChartView) => lineChart(chart.title, chart.series, chart.max, chart.format, palette);
  const bars = (chart: BarChartView) => barChart(chart.title, chart.bars, chart.max, chart.format, palette);
  const tiles = view.tiles
    .map(
      (t) =>
        `<div class="tile"><span>${escapeHtml(t.label)}</span><b>${escapeHtml(t.value)}</b><span>${escapeHtml(t.note)}</span></div>`,
    )
    .join("");
  const logo = logoSource(view.brand.logo);
  const changes =
    view.changes === null
      ? `<h2>Against the previous period</h2><p class="none">This is the first period measured: there is nothing to compare with yet.</p>`
      : `<h2>Against the previous period</h2><p class="meta">${escapeHtml(view.changes.note)}</p>${table(view.changes.table, "Against the previous period")}`;
  const surfaces =
    view.surfaces === null
      ? ""
      : `<h2>API and as people see it</h2><p class="meta">${escapeHtml(view.surfaces.note)}</p>${table(view.surfaces.table, "API and as people see it")}`;
  const opportunities =
    view.opportunities.length === 0
      ? `<p class="none">No opportunity stands out in these answers.</p>`
      : `<ol class="opportunities">${view.opportunities
          .map((o) => `<li><b>${escapeHtml(o.title)}</b><br>${escapeHtml(o.detail)}</li>`)
          .join("")}</ol>`;
  const experiments =
    view.experiments === null
      ? ""
      : `<h2>Experiments</h2><p class="meta">${escapeHtml(view.experiments.note)}</p><ul class="experiments">${view.experiments.items
          .map(
            (e) =>
              `<li><b>${escapeHtml(e.title)}</b><p class="meta">${escapeHtml(e.meta)}</p>${escapeHtml(e.summary)}<br>${escapeHtml(e.effect)}</li>`,
          )
          .join("")}</ul>`;
  const traffic =
    view.traffic === null
      ? ""
      : `<h2>AI crawlers and referrals</h2><p class="meta">${escapeHtml(view.traffic.note)}</p><ul class="traffic">${view.traffic.lines
          .map((l) => `<li>${escapeHtml(l)}</li>`)
          .join("")}</ul>${view.traffic.warnings
          .map((w) => `<p class="warning"><b>Warning:</b> ${escapeHtml(w)}</p>`)
          .join("")}`;
  const conversations =
    view.conversations === null
      ? ""
      : `<h2>Conversations</h2><p class="meta">${escapeHtml(view.conversations.note)}</p>${view.conversations.scripts
          .map(
            (c) =>
              `<h3>${escapeHtml(c.title)}</h3><ul class="traffic">${c.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`,
          )
          .join("")}`;
  const audiences =
    view.audiences === null
      ? ""
      : `<h2>Personas and countries</h2><p class="meta">${escapeHtml(view.audiences.note)}</p>${view.audiences.sections
          .map(
            (c) =>
              `<h3>${escapeHtml(c.title)}</h3><ul class="traffic">${c.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`,
          )
          .join("")}`;
  const alerts =
    view.alerts === null ? `<p class="none">No alert fired in this period.</p>` : table(view.alerts, "Alerts");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(view.title)}</title><style>${style(view.brand)}</style></head><body><main>
<header>${logo === null ? "" : `<img src="${logo}" alt="${escapeHtml(view.brand.name)}">`}<span class="sender">${escapeHtml(view.brand.name)}</span></header>
<h1>${escapeHtml(view.title)}</h1>
<p class="meta">${escapeHtml(view.meta)}</p>
<section class="summary" aria-labelledby="summary-heading"><h2 id="summary-heading" style="margin-top:0;border:0">Summary</h2>${view.summary
    .map((s) => `<p>${escapeHtml(s)}</p>`)
    .join("")}<p class="next">${escapeHtml(view.recommendation)}</p></section>
<h2>The figures</h2><div class="tiles">${tiles}</div>
${changes}
<h2>By engine</h2><p class="meta">${escapeHtml(view.engines.note)}</p>${table(view.engines.table, "By engine")}${bars(view.positions)}${surfaces}
<h2>By prompt</h2><p class="meta">${escapeHtml(view.prompts.note)}</p>${table(view.prompts.table, "By prompt")}
<h2>Over time</h2>${line(view.overTime)}
<h2>Against competitors</h2>${bars(view.share)}
<h2>Opportunities</h2>${opportunities}${experiments}${audiences}${conversations}${traffic}
<h2>Sources</h2>${bars(view.domains)}${view.kinds === null ? "" : bars(view.kinds)}
<h2>Alerts</h2>${alerts}
${view.credit === null ? "" : `<footer>${escapeHtml(view.credit)}</footer>`}
</main></body></html>`;
}
