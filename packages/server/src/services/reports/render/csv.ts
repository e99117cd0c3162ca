import { surfaceOf } from "../../engines/catalog.ts";
import { sentimentFromPolarity } from "../../glossary/format.ts";
import type { ResultRow } from "../types.ts";

/**
 * What a line has beyond the report's table: the answer itself and every measured column. Null on
 * reports generated before 2026-11-24, whose embedded answers lack them.
 */
export interface AnswerDetail {
  text: string | null;
  error: string | null;
  stance: string | null;
  citations: number;
  brand_citations: number;
  cost_usd: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  search_calls: number | null;
  attempts: number;
  latency_ms: number;
  score_version: string;
}

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
  // Issue 24: the answer and every measured column. `sentiment` stays the polarity (−1 to +1);
  // `sentiment_score` is the same on the 0–100 scale people read everywhere else.
  "sentiment_score",
  "stance",
  "citations",
  "brand_citations",
  "text",
  "error",
  "cost_usd",
  "input_tokens",
  "output_tokens",
  "search_calls",
  "attempts",
  "latency_ms",
  "score_version",
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
export function csvLine(r: ResultRow, d: AnswerDetail | null = null): string {
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
    sentimentFromPolarity(r.sentiment),
    d?.stance,
    d?.citations,
    d?.brand_citations,
    d?.text,
    d?.error,
    d?.cost_usd,
    d?.input_tokens,
    d?.output_tokens,
    d?.search_calls,
    d?.attempts,
    d?.latency_ms,
    d?.score_version,
  ]
    .map(field)
    .join(",")}\r\n`;
}
