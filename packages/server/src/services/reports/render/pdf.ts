import type { Report } from "../types.ts";
import { type BarChartView, type LineChartView, reportView, type TableView } from "./view.ts";

/**
 * The report as a PDF (A4, vector charts), drawn from the same view as the HTML page. Pure
 * JavaScript (pdfkit): no browser needed, so every install can produce it.
 *
 * The text is set in the PDF's standard Helvetica, which covers Windows-1252 (Latin scripts of
 * Western and most of Central Europe); other characters (a prompt in Japanese) print as "?". The
 * HTML page has no such limit: docs/reports.md says so.
 */

const PALETTE = ["#2456d6", "#d2691e", "#2e7d4f", "#9b30b0", "#b3261e", "#00838f", "#6d4c41", "#5c6bc0", "#c0a000"];
const INK = "#1c2330";
const MUTED = "#5b6472";
const RULE = "#e2e5ea";
const MARGIN = 48;

/** Windows-1252 beyond Latin-1: what Helvetica can print besides U+0020–U+007E and U+00A0–U+00FF. */
const CP1252_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

function printable(text: string): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    const code = char.codePointAt(0) ?? 0;
    const ok = (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRA.has(char);
    out += ok ? char : char === "\n" ? " " : "?";
  }
  return out;
}

type Doc = PDFKit.PDFDocument;

const color = (index: number) => PALETTE[index % PALETTE.length] as string;
const width = (doc: Doc) => doc.page.width - 2 * MARGIN;
const bottom = (doc: Doc) => doc.page.height - MARGIN;

/** Starts a new page unless `height` points still fit on this one. */
function room(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

function heading(doc: Doc, text: string): void {
  // A heading keeps its note and the start of what follows with it.
  room(doc, 120);
  doc.moveDown(1);
  doc.font("Helvetica-Bold").fontSize(13).fillColor(INK).text(printable(text), MARGIN, doc.y);
  const y = doc.y + 2;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + width(doc), y)
    .lineWidth(0.75)
    .strokeColor(RULE)
    .stroke();
  doc.y = y + 8;
}

function caption(doc: Doc, text: string): void {
  doc.font("Helvetica-Bold").fontSize(10).fillColor(INK).text(printable(text), MARGIN, doc.y);
  doc.moveDown(0.3);
}

function tiles(doc: Doc, items: { label: string; value: string; note: string }[]): void {
  const columns = 3;
  const gap = 10;
  const w = (width(doc) - gap * (columns - 1)) / columns;
  const h = 58;
  const top = doc.y;
  items.forEach((tile, i) => {
    const x = MARGIN + (i % columns) * (w + gap);
    const y = top + Math.floor(i / columns) * (h + gap);
    doc.roundedRect(x, y, w, h, 5).lineWidth(0.75).strokeColor(RULE).stroke();
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(MUTED)
      .text(printable(tile.label), x + 10, y + 8, { width: w - 20 });
    doc
      .font("Helvetica-Bold")
      .fontSize(16)
      .fillColor(INK)
      .text(printable(tile.value), x + 10, y + 20, { width: w - 20 });
    doc
      .font("Helvetica")
      .fontSize(7)
      .fillColor(MUTED)
      .text(printable(tile.note), x + 10, y + 42, { width: w - 20 });
  });
  doc.y = top + Math.ceil(items.length / columns) * (h + gap);
}

function lineChart(doc: Doc, chart: LineChartView): void {
  const height = 190;
  room(doc, height + 30);
  caption(doc, chart.title);
  const left = MARGIN + 36;
  const legend = 120;
  const plotWidth = width(doc) - 36 - legend;
  const top = doc.y + 6;
  const plotHeight = height - 40;
  const labels = chart.series[0]?.points.map((p) => p.label) ?? [];
  const x = (i: number) => left + (labels.length <= 1 ? plotWidth / 2 : (i * plotWidth) / (labels.length - 1));
  const y = (v: number) => top + plotHeight - (Math.min(chart.max, Math.max(0, v)) / chart.max) * plotHeight;
  doc.font("Helvetica").fontSize(7);
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const gy = y(f * chart.max);
    doc
      .moveTo(left, gy)
      .lineTo(left + plotWidth, gy)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.fillColor(MUTED).text(chart.format(f * chart.max), MARGIN, gy - 3, { width: 30, align: "right" });
  }
  const step = Math.max(1, Math.ceil(labels.length / 6));
  labels.forEach((label, i) => {
    if (i % step === 0 || i === labels.length - 1)
      doc.fillColor(MUTED).text(printable(label), x(i) - 30, top + plotHeight + 6, { width: 60, align: "center" });
  });
  chart.series.forEach((series, index) => {
    const points = series.points.flatMap((p, i) => (p.value === null ? [] : [{ x: x(i), y: y(p.value) }]));
    points.forEach((p, i) => {
      if (i === 0) doc.moveTo(p.x, p.y);
      else doc.lineTo(p.x, p.y);
    });
    if (points.length > 1) doc.lineWidth(1.5).strokeColor(color(index)).stroke();
    for (const p of points) doc.circle(p.x, p.y, 2.5).fillColor(color(index)).fill();
    const ly = top + index * 14;
    doc
      .rect(left + plotWidth + 14, ly, 8, 8)
      .fillColor(color(index))
      .fill();
    doc
      .fillColor(INK)
      .fontSize(7)
      .text(printable(series.name), left + plotWidth + 26, ly, { width: legend - 28, lineBreak: false });
  });
  doc.y = top + height - 14;
}

function barChart(doc: Doc, chart: BarChartView): void {
  const row = 16;
  room(doc, Math.min(chart.bars.length, 12) * row + 30);
  caption(doc, chart.title);
  const labelWidth = 140;
  const left = MARGIN + labelWidth + 8;
  const span = width(doc) - labelWidth - 8 - 50;
  for (const bar of chart.bars) {
    room(doc, row);
    const top = doc.y;
    const value = bar.value ?? 0;
    const length = (span * Math.max(0, value)) / (chart.max === 0 ? 1 : chart.max);
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(INK)
      .text(printable(bar.label), MARGIN, top + 3, { width: labelWidth, align: "right", lineBreak: false });
    if (length > 0)
      doc
        .rect(left, top + 2, length, row - 5)
        .fillColor(bar.highlight === true ? color(0) : "#9aa5b8")
        .fill();
    doc
      .fillColor(INK)
      .text(bar.value === null ? "–" : chart.format(value), left + length + 4, top + 3, { lineBreak: false });
    doc.y = top + row;
  }
  doc.moveDown(0.6);
}

function table(doc: Doc, { head, rows }: TableView): void {
  const w = width(doc) / head.length;
  const line = (cells: string[], bold: boolean) => {
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(8);
    const texts = cells.map(printable);
    const h = Math.max(...texts.map((t) => doc.heightOfString(t, { width: w - 6 }))) + 6;
    room(doc, h);
    const top = doc.y;
    texts.forEach((t, i) => {
      doc.fillColor(bold ? MUTED : INK).text(t, MARGIN + i * w + 3, top + 3, { width: w - 6 });
    });
    doc
      .moveTo(MARGIN, top + h)
      .lineTo(MARGIN + width(doc), top + h)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.y = top + h;
  };
  // The head never ends a page alone: it and a first row of two lines fit, or both move on.
  room(doc, 56);
  line(head, true);
  for (const row of rows) line(row, false);
  doc.moveDown(0.6);
}

function note(doc: Doc, text: string): void {
  doc
    .font("Helvetica")
    .fontSize(8)
    .fillColor(MUTED)
    .text(printable(text), MARGIN, doc.y, { width: width(doc) });
  doc.moveDown(0.5);
}

/** The report as the bytes of a PDF document. */
export async function reportPdf(report: Report): Promise<Buffer> {
  // Loaded on the first PDF, not at start-up (pdfkit and its fonts: about 190 ms, issue 16).
  const { default: PDFDocument } = await import("pdfkit");
  const view = reportView(report);
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    info: { Title: printable(view.title), Producer: "Sightline", Creator: "Sightline" },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font("Helvetica-Bold").fontSize(18).fillColor(INK).text(printable(view.title), MARGIN, MARGIN);
  doc.moveDown(0.2);
  note(doc, view.meta);
  doc.moveDown(0.4);
  tiles(doc, view.tiles);
  heading(doc, "Over time");
  lineChart(doc, view.overTime);
  heading(doc, "Against competitors");
  barChart(doc, view.share);
  heading(doc, "By engine");
  table(doc, view.byEngine);
  barChart(doc, view.positions);
  if (view.surfaces !== null) {
    heading(doc, "API vs web");
    note(doc, view.surfaces.note);
    table(doc, view.surfaces.table);
  }
  heading(doc, "Sources");
  barChart(doc, view.domains);
  if (view.kinds !== null) barChart(doc, view.kinds);
  heading(doc, "Alerts");
  if (view.alerts === null) note(doc, "No alert fired in this period.");
  else table(doc, view.alerts);
  doc.end();
  return done;
}
