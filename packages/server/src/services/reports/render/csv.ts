import { surfaceOf } from "../../engines/catalog.ts";
import type { ResultRow } from "../types.ts";

const COLUMNS = [
  "result_id",
  "created_at",
  "engine",
  "model",
  "prompt",
  "sample",
  "status",
  "mentioned",
  "position",
  "sentiment",
  "brand_cited",
  "score",
  "cited_domains",
  "competitors_mentioned",
  // Last, so that readers of the columns before it by position keep working.
  "cited_domain_categories",
  "surface",
  "searches",
] as const;

/**
 * RFC 4180 field. Text starting with =, +, -, @, tab or CR is prefixed with ' so that spreadsheets
 * never run it as a formula; numbers (a sentiment of -0.5) are written as they are.
 */
function field(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  let text = Array.isArray(value) ? value.join(";") : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The first line of a report's CSV. */
export function csvHeader(): string {
  return `${COLUMNS.join(",")}\r\n`;
}

/** One answer's line. */
export function csvLine(r: ResultRow): string {
  return `${[
    r.id,
    r.created_at,
    r.engine,
    r.model,
    r.prompt,
    r.sample,
    r.status,
    r.mentioned,
    r.position,
    r.sentiment,
    r.brand_cited,
    r.score,
    r.cited_domains,
    r.competitors_mentioned,
    r.cited_domain_categories ?? [],
    surfaceOf(r.engine),
    r.searches ?? [],
  ]
    .map(field)
    .join(",")}\r\n`;
}
