import { escapeHtml } from "../../../lib/html.ts";
import type { Series } from "./view.ts";

const DEFAULT_PALETTE = ["#2456d6", "#d2691e", "#2e7d4f", "#9b30b0", "#b3261e", "#00838f", "#6d4c41", "#5c6bc0"];

const pick = (palette: readonly string[], index: number) =>
  (palette[index % palette.length] ?? "#2456d6").replace(/[^#0-9a-fA-F]/g, "");

/** A line chart of values in [0, max] over labelled points, one line per series, with a legend. */
export function lineChart(
  title: string,
  series: Series[],
  max = 1,
  format = (v: number) => `${Math.round(v * 100)}%`,
  palette: readonly string[] = DEFAULT_PALETTE,
): string {
  const color = (index: number) => pick(palette, index);
  const width = 640;
  const height = 260;
  const left = 48;
  const right = 150;
  const top = 24;
  const bottom = 40;
  const labels = series[0]?.points.map((p) => p.label) ?? [];
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const x = (i: number) => left + (labels.length <= 1 ? plotWidth / 2 : (i * plotWidth) / (labels.length - 1));
  const y = (v: number) => top + plotHeight - (Math.min(max, Math.max(0, v)) / max) * plotHeight;
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (f) =>
        `<line x1="${left}" x2="${left + plotWidth}" y1="${y(f * max)}" y2="${y(f * max)}" class="grid"/><text x="${left - 6}" y="${y(f * max) + 4}" text-anchor="end" class="axis">${escapeHtml(format(f * max))}</text>`,
    )
    .join("");
  const step = Math.max(1, Math.ceil(labels.length / 6));
  const ticks = labels
    .map((label, i) =>
      i % step === 0 || i === labels.length - 1
        ? `<text x="${x(i)}" y="${height - bottom + 16}" text-anchor="middle" class="axis">${escapeHtml(label)}</text>`
        : "",
    )
    .join("");
  const lines = series
    .map((s, index) => {
      const points = s.points
        .map((p, i) => (p.value === null ? null : { x: x(i), y: y(p.value) }))
        .filter((p) => p !== null);
      const path = points.map((p, i) => `${i === 0 ? "M" : "L"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
      const dots = points
        .map((p) => `<circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="3.5" fill="${color(index)}"/>`)
        .join("");
      const legend = `<rect x="${width - right + 12}" y="${top + index * 18}" width="12" height="12" fill="${color(index)}"/><text x="${width - right + 30}" y="${top + index * 18 + 10}" class="legend">${escapeHtml(s.name)}</text>`;
      return `<path d="${path}" fill="none" stroke="${color(index)}" stroke-width="2"/>${dots}${legend}`;
    })
    .join("");
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}" class="chart line-chart">${grid}${ticks}${lines}</svg></figure>`;
}

/** Horizontal bars, one per labelled value, longest to the value `max`. */
export function barChart(
  title: string,
  bars: { label: string; value: number | null; highlight?: boolean }[],
  max: number,
  format: (v: number) => string,
  palette: readonly string[] = DEFAULT_PALETTE,
): string {
  const color = (index: number) => pick(palette, index);
  const width = 640;
  const row = 26;
  const left = 170;
  const height = Math.max(1, bars.length) * row + 16;
  const scale = (v: number) => ((width - left - 70) * Math.max(0, v)) / (max === 0 ? 1 : max);
  const rows = bars
    .map((bar, i) => {
      const y = 8 + i * row;
      const value = bar.value ?? 0;
      return `<text x="${left - 8}" y="${y + 15}" text-anchor="end" class="label">${escapeHtml(bar.label)}</text><rect x="${left}" y="${y + 3}" width="${scale(value).toFixed(1)}" height="${row - 8}" fill="${bar.highlight === true ? color(0) : "#9aa5b8"}" class="bar"/><text x="${left + scale(value) + 6}" y="${y + 15}" class="value">${bar.value === null ? "–" : escapeHtml(format(value))}</text>`;
    })
    .join("");
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}" class="chart bar-chart">${rows}</svg></figure>`;
}
