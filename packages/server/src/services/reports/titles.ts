import { engineTitle } from "../labels.ts";
import type { ReportType } from "./types.ts";

/**
 * A report's title says whose it is, what period and which engines, in words a client reads
 * ("Acme CRM — AI visibility on 26 Nov 2026, 14:05 UTC — ChatGPT, Claude and Gemini"); its PDF's
 * file name says the same. Two reports of one brand never share a title (`uniqueTitle`).
 */

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const time = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** "ChatGPT, Claude and Gemini"; past three, "ChatGPT, Claude, Gemini and 4 more". */
export function engineList(engines: readonly string[]): string {
  const names = engines.map(engineTitle);
  if (names.length === 0) return "no engine";
  if (names.length === 1) return names[0] as string;
  if (names.length <= 3) return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;
}

/** "16–22 Nov 2026" for a week [start, end), the last day being the one before `end`. */
function week(start: string, end: string): string {
  const first = new Date(start);
  const last = new Date(new Date(end).getTime() - 86_400_000);
  const to = day.format(last);
  const from =
    first.getUTCFullYear() !== last.getUTCFullYear()
      ? day.format(first)
      : first.getUTCMonth() !== last.getUTCMonth()
        ? day.format(first).replace(/ \d{4}$/, "")
        : String(first.getUTCDate());
  return `${from}–${to}`;
}

/** The title of a new report, before it is made unique. */
export function reportTitle(input: {
  brand: string;
  type: ReportType;
  start: string;
  end: string;
  engines: readonly string[];
}): string {
  const at = new Date(input.end);
  const period =
    input.type === "weekly_digest"
      ? `week of ${week(input.start, input.end)}`
      : `${input.type === "analysis" ? "AI visibility" : "Monitoring run"} on ${day.format(at)}, ${time.format(at)} UTC`;
  return `${input.brand} — ${period} — ${engineList(input.engines)}`;
}

/** `title`, or `title (2)`, `(3)`… past the titles the brand's reports already have. */
export function uniqueTitle(title: string, taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has(title)) return title;
  for (let n = 2; ; n++) if (!used.has(`${title} (${n})`)) return `${title} (${n})`;
}

/**
 * The PDF's file name: the title in words, with what file systems refuse taken out
 * ("Acme CRM - AI visibility on 26 Nov 2026, 1405 UTC - ChatGPT, Claude and Gemini.pdf").
 */
export function reportFileName(title: string, extension: "pdf" | "csv" | "html"): string {
  const words = title
    .replace(/\s+—\s+/g, " - ")
    .replace(/(\d{2}):(\d{2})/g, "$1$2")
    .replace(/[\\/:*?"<>|]+/g, " ")
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 180);
  return `${words === "" ? "Report" : words}.${extension}`;
}
