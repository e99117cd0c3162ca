import { downloadBlob } from "./csv.ts";

/**
 * A chart saved as a PNG, drawn in the browser: the chart's SVG, with the styles it inherits from the
 * page written onto its elements, is drawn onto a canvas under a title and a legend. Nothing is sent
 * anywhere; the page's CSP allows the data: image this goes through.
 */

export interface PngLegendItem {
  name: string;
  color: string;
}

const STYLE_PROPS = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-dasharray",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "text-anchor",
  "dominant-baseline",
  "visibility",
] as const;

function inlineStyles(source: Element, target: Element): void {
  const computed = window.getComputedStyle(source);
  const style = STYLE_PROPS.map((prop) => `${prop}:${computed.getPropertyValue(prop)}`).join(";");
  target.setAttribute("style", style);
  const sourceChildren = source.children;
  const targetChildren = target.children;
  for (let i = 0; i < sourceChildren.length; i++) {
    const from = sourceChildren[i];
    const to = targetChildren[i];
    if (from && to) inlineStyles(from, to);
  }
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error("The chart could not be drawn as an image."));
    image.src = url;
  });
}

function font(size: number, weight = 400): string {
  return `${weight} ${size}px ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif`;
}

export async function downloadChartPng(
  svg: SVGSVGElement,
  options: { title: string; subtitle?: string; legend?: readonly PngLegendItem[]; filename: string },
): Promise<void> {
  const { width, height } = svg.getBoundingClientRect();
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, clone);
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  const markup = new XMLSerializer().serializeToString(clone);
  const image = await loadImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`);

  const scale = 2;
  const padding = 16;
  const legend = options.legend ?? [];
  const context0 = document.createElement("canvas").getContext("2d");
  if (!context0) throw new Error("This browser cannot draw images.");
  // Lay the legend out in rows that fit the chart's width.
  context0.font = font(12);
  const rows: { item: PngLegendItem; x: number }[][] = [[]];
  let x = padding;
  for (const item of legend) {
    const itemWidth = 18 + context0.measureText(item.name).width + 16;
    if (x + itemWidth > width + padding && x > padding) {
      rows.push([]);
      x = padding;
    }
    rows.at(-1)?.push({ item, x });
    x += itemWidth;
  }
  const titleHeight = options.subtitle ? 46 : 28;
  const legendHeight = legend.length > 0 ? rows.length * 20 + 6 : 0;
  const canvas = document.createElement("canvas");
  canvas.width = (width + padding * 2) * scale;
  canvas.height = (height + padding * 2 + titleHeight + legendHeight) * scale;
  const context = canvas.getContext("2d");
  if (!context) throw new Error("This browser cannot draw images.");
  context.scale(scale, scale);
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = "#18181b";
  context.font = font(16, 600);
  context.textBaseline = "top";
  context.fillText(options.title, padding, padding);
  if (options.subtitle) {
    context.fillStyle = "#52525b";
    context.font = font(12);
    context.fillText(options.subtitle, padding, padding + 22);
  }
  context.font = font(12);
  rows.forEach((row, index) => {
    const y = padding + titleHeight + index * 20;
    for (const { item, x: left } of row) {
      context.fillStyle = item.color;
      context.fillRect(left, y + 2, 12, 12);
      context.fillStyle = "#18181b";
      context.fillText(item.name, left + 18, y + 1);
    }
  });
  context.drawImage(image, padding, padding + titleHeight + legendHeight, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
  if (!blob) throw new Error("The image could not be made.");
  downloadBlob(blob, options.filename);
}
