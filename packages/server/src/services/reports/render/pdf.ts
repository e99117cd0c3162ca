import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Branding } from "../../branding/types.ts";
import type { Report } from "../types.ts";
import { type BarChartView, type LineChartView, reportView, type TableView } from "./view.ts";

/**
 * The report as a PDF (A4, vector charts), drawn from the same view as the HTML page, in the
 * workspace's name and colours. Pure JavaScript (pdfkit): no browser needed, so every install can
 * produce it.
 *
 * The text is set in Noto Sans JP (SIL Open Font License, from the `@expo-google-fonts/noto-sans-jp`
 * package), embedded as a subset of the glyphs used: it covers Latin, Greek, Cyrillic and Japanese,
 * so a prompt in Japanese prints as Japanese. A character it lacks (Korean Hangul, Polish ł) prints
 * as "?" rather than as an empty box (docs/reports.md).
 */

const FONT_FILES = {
  regular: "@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf",
  bold: "@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf",
} as const;
const BODY = "Body";
const BOLD = "Body-Bold";

interface Fonts {
  regular: Buffer;
  bold: Buffer;
  has: (code: number) => boolean;
}

let fonts: Promise<Fonts> | null = null;

/** The two faces, read once per process with the first PDF (about 11 MB, never at start-up). */
function loadFonts(): Promise<Fonts> {
  fonts ??= (async () => {
    const require = createRequire(import.meta.url);
    const regular = readFileSync(require.resolve(FONT_FILES.regular));
    const bold = readFileSync(require.resolve(FONT_FILES.bold));
    const { create } = await import("fontkit");
    const face = create(regular);
    const known = new Map<number, boolean>();
    const has = (code: number) => {
      let answer = known.get(code);
      if (answer === undefined) {
        answer = face.hasGlyphForCodePoint(code);
        known.set(code, answer);
      }
      return answer;
    };
    return { regular, bold, has };
  })();
  return fonts;
}

const INK = "#1c2330";
const MUTED = "#5b6472";
const RULE = "#e2e5ea";
const WARNING = "#b3261e";
const MARGIN = 48;

/** The document being drawn, with its colours and what its font can print. */
type Doc = PDFKit.PDFDocument & {
  /** The chart colours: the workspace's primary and accent first. */
  palette: readonly string[];
  /** The text with line breaks as spaces, and what the font cannot draw as "?". */
  printable: (text: string) => string;
};

const color = (doc: Doc, index: number) => doc.palette[index % doc.palette.length] as string;
const width = (doc: Doc) => doc.page.width - 2 * MARGIN;
const bottom = (doc: Doc) => doc.page.height - MARGIN;

/** Starts a new page unless `height` points still fit on this one. */
function room(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

function heading(doc: Doc, text: string, keep = 120): void {
  // A heading keeps its note and the start of what follows with it (`keep` points: a chart whole).
  room(doc, keep);
  doc.moveDown(1);
  doc.font(BOLD).fontSize(13).fillColor(color(doc, 0)).text(doc.printable(text), MARGIN, doc.y);
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
  doc.font(BOLD).fontSize(10).fillColor(INK).text(doc.printable(text), MARGIN, doc.y);
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
      .font(BODY)
      .fontSize(8)
      .fillColor(MUTED)
      .text(doc.printable(tile.label), x + 10, y + 8, { width: w - 20 });
    doc
      .font(BOLD)
      .fontSize(16)
      .fillColor(INK)
      .text(doc.printable(tile.value), x + 10, y + 20, { width: w - 20 });
    doc
      .font(BODY)
      .fontSize(7)
      .fillColor(MUTED)
      .text(doc.printable(tile.note), x + 10, y + 42, { width: w - 20 });
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
  doc.font(BODY).fontSize(7);
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
      doc.fillColor(MUTED).text(doc.printable(label), x(i) - 30, top + plotHeight + 6, { width: 60, align: "center" });
  });
  chart.series.forEach((series, index) => {
    const points = series.points.flatMap((p, i) => (p.value === null ? [] : [{ x: x(i), y: y(p.value) }]));
    points.forEach((p, i) => {
      if (i === 0) doc.moveTo(p.x, p.y);
      else doc.lineTo(p.x, p.y);
    });
    if (points.length > 1) doc.lineWidth(1.5).strokeColor(color(doc, index)).stroke();
    for (const p of points) doc.circle(p.x, p.y, 2.5).fillColor(color(doc, index)).fill();
    const ly = top + index * 14;
    doc
      .rect(left + plotWidth + 14, ly, 8, 8)
      .fillColor(color(doc, index))
      .fill();
    doc
      .fillColor(INK)
      .fontSize(7)
      .text(doc.printable(series.name), left + plotWidth + 26, ly, { width: legend - 28, lineBreak: false });
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
      .font(BODY)
      .fontSize(8)
      .fillColor(INK)
      .text(doc.printable(bar.label), MARGIN, top + 3, { width: labelWidth, align: "right", lineBreak: false });
    if (length > 0)
      doc
        .rect(left, top + 2, length, row - 5)
        .fillColor(bar.highlight === true ? color(doc, 0) : "#9aa5b8")
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
    doc.font(bold ? BOLD : BODY).fontSize(8);
    const texts = cells.map(doc.printable);
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

/** A line the reader must not miss: bold, in red. */
function warning(doc: Doc, text: string): void {
  doc
    .font(BOLD)
    .fontSize(9)
    .fillColor(WARNING)
    .text(doc.printable(text), MARGIN + 10, doc.y, { width: width(doc) - 20 });
  doc.moveDown(0.4);
}

function note(doc: Doc, text: string): void {
  doc
    .font(BODY)
    .fontSize(8)
    .fillColor(MUTED)
    .text(doc.printable(text), MARGIN, doc.y, { width: width(doc) });
  doc.moveDown(0.5);
}

/** A PNG or JPEG logo's bytes, or null (anything else is not drawn). */
function logoBytes(logo: string | null): Buffer | null {
  const match = logo === null ? null : /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/=]+)$/.exec(logo);
  return match === null ? null : Buffer.from(match[2] as string, "base64");
}

function paragraph(doc: Doc, text: string, bold = false): void {
  doc
    .font(bold ? BOLD : BODY)
    .fontSize(9.5)
    .fillColor(INK)
    .text(doc.printable(text), MARGIN + 10, doc.y, { width: width(doc) - 20 });
  doc.moveDown(0.4);
}

/** The report as the bytes of a PDF document, signed by `brand`. */
export async function reportPdf(report: Report, brand: Branding): Promise<Buffer> {
  // Loaded on the first PDF, not at start-up (pdfkit and its fonts, issue 16).
  const [{ default: PDFDocument }, faces] = await Promise.all([import("pdfkit"), loadFonts()]);
  const view = reportView(report, brand);
  const printable = (text: string) => {
    let out = "";
    for (const char of text.normalize("NFC")) {
      const code = char.codePointAt(0) ?? 0;
      out += char === "\n" ? " " : code < 0x20 ? "" : faces.has(code) ? char : "?";
    }
    return out;
  };
  const producer = brand.show_sightline ? "Sightline" : brand.name;
  const doc: Doc = Object.assign(
    new PDFDocument({
      size: "A4",
      margin: MARGIN,
      info: { Title: view.title, Author: brand.name, Producer: producer, Creator: producer },
    }),
    { palette: view.palette, printable },
  );
  doc.registerFont(BODY, faces.regular);
  doc.registerFont(BOLD, faces.bold);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const primary = color(doc, 0);
  // The sender: the workspace's logo and name over a rule in its colour.
  const logo = logoBytes(view.brand.logo);
  let top = MARGIN;
  if (logo !== null) {
    try {
      doc.image(logo, MARGIN, top, { fit: [140, 36] });
      top += 42;
    } catch {
      // A logo pdfkit cannot read is left out rather than failing the report.
    }
  }
  doc.font(BOLD).fontSize(10).fillColor(primary).text(printable(view.brand.name), MARGIN, top);
  doc
    .moveTo(MARGIN, doc.y + 4)
    .lineTo(MARGIN + width(doc), doc.y + 4)
    .lineWidth(2)
    .strokeColor(primary)
    .stroke();
  doc.y += 14;
  doc
    .font(BOLD)
    .fontSize(17)
    .fillColor(primary)
    .text(printable(view.title), MARGIN, doc.y, { width: width(doc) });
  doc.moveDown(0.2);
  note(doc, view.meta);
  heading(doc, "Summary");
  for (const sentence of view.summary) paragraph(doc, sentence);
  paragraph(doc, view.recommendation, true);
  heading(doc, "The figures");
  tiles(doc, view.tiles);
  heading(doc, "Against the previous period");
  if (view.changes === null) note(doc, "This is the first period measured: there is nothing to compare with yet.");
  else {
    note(doc, view.changes.note);
    table(doc, view.changes.table);
  }
  heading(doc, "By engine");
  note(doc, view.engines.note);
  table(doc, view.engines.table);
  barChart(doc, view.positions);
  if (view.surfaces !== null) {
    heading(doc, "API and as people see it");
    note(doc, view.surfaces.note);
    table(doc, view.surfaces.table);
  }
  heading(doc, "By prompt");
  note(doc, view.prompts.note);
  table(doc, view.prompts.table);
  heading(doc, "Over time", 260);
  lineChart(doc, view.overTime);
  heading(doc, "Against competitors");
  barChart(doc, view.share);
  heading(doc, "Opportunities");
  if (view.opportunities.length === 0) note(doc, "No opportunity stands out in these answers.");
  view.opportunities.forEach((o, i) => {
    room(doc, 40);
    paragraph(doc, `${i + 1}. ${o.title}`, true);
    note(doc, o.detail);
  });
  if (view.experiments !== null) {
    heading(doc, "Experiments");
    note(doc, view.experiments.note);
    for (const e of view.experiments.items) {
      room(doc, 60);
      paragraph(doc, e.title, true);
      note(doc, e.meta);
      paragraph(doc, e.summary);
      paragraph(doc, e.effect);
    }
  }
  for (const [title, section] of [
    [
      "Personas and countries",
      view.audiences === null ? null : { note: view.audiences.note, parts: view.audiences.sections },
    ],
    [
      "Conversations",
      view.conversations === null ? null : { note: view.conversations.note, parts: view.conversations.scripts },
    ],
  ] as const) {
    if (section === null) continue;
    heading(doc, title);
    note(doc, section.note);
    for (const part of section.parts) {
      room(doc, 40);
      paragraph(doc, part.title, true);
      for (const line of part.lines) paragraph(doc, line);
    }
  }
  if (view.traffic !== null) {
    heading(doc, "AI crawlers and referrals");
    note(doc, view.traffic.note);
    for (const line of view.traffic.lines) paragraph(doc, line);
    for (const line of view.traffic.warnings) warning(doc, `Warning: ${line}`);
  }
  heading(doc, "Sources", Math.min(view.domains.bars.length, 12) * 16 + 80);
  barChart(doc, view.domains);
  if (view.kinds !== null) barChart(doc, view.kinds);
  heading(doc, "Alerts");
  if (view.alerts === null) note(doc, "No alert fired in this period.");
  else table(doc, view.alerts);
  if (view.credit !== null) {
    doc.moveDown(1);
    note(doc, view.credit);
  }
  doc.end();
  return done;
}
