import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

/** What pdf.js reads of a PDF: its pages' text, how many paths its drawing fills or strokes, its metadata. */
export interface ReadPdf {
  pages: number;
  /** Every page's text, a line per page. */
  text: string;
  /** Filled or stroked paths: the charts' bars, lines and dots, and the rules. */
  paths: number;
  title: unknown;
  /** The document information (title, author, producer…) as JSON. */
  info: string;
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const fonts = `${join(dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;
  const pdf = await getDocument({ data: bytes, isEvalSupported: false, standardFontDataUrl: fonts }).promise;
  let text = "";
  let paths = 0;
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    text += `${content.items.map((item) => ("str" in item ? item.str : "")).join(" ")}\n`;
    const ops = await page.getOperatorList();
    paths += ops.fnArray.filter((op) => op === OPS.fill || op === OPS.stroke || op === OPS.eoFill).length;
  }
  const { info } = await pdf.getMetadata();
  const pages = pdf.numPages;
  await pdf.destroy();
  return { pages, text, paths, title: (info as { Title?: unknown }).Title, info: JSON.stringify(info) };
}
