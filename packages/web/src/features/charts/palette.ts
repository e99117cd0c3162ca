/**
 * Series colours: distinct hues dark enough to read against white (at least 3:1), the brand always
 * in the app's own blue and each engine always in the same colour, on every chart.
 */
export const BRAND_COLOR = "#2f4aa8";
const SERIES = ["#c2410c", "#0f766e", "#a21caf", "#4d7c0f", "#b91c1c", "#0369a1", "#7c3aed", "#a16207", "#4b5563"];
const ENGINE_ORDER = ["sandbox", "chatgpt", "claude", "gemini", "perplexity", "grok", "deepseek", "google_ai_overview"];
export const ALL_ENGINES_COLOR = "#27272a";

export function seriesColor(index: number): string {
  return SERIES[index % SERIES.length] ?? "#4b5563";
}

export function engineColor(engine: string): string {
  const known = ENGINE_ORDER.indexOf(engine);
  if (known >= 0) return [BRAND_COLOR, ...SERIES][known] ?? "#4b5563";
  let hash = 0;
  for (const char of engine) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return seriesColor(hash);
}
