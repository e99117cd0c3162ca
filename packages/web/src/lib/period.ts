/**
 * The period, engine and prompt tag every brand view shares, kept in the URL's search params:
 * `?days=7|30|90` (30 when absent) or a custom `?from=YYYY-MM-DD&to=YYYY-MM-DD` (both days included),
 * `?engine=` and `?tag=` (only the answers to the prompts carrying that tag).
 * The analytics API counts whole UTC days, half-open `[from, to)`, so the last day is sent as the next one.
 */

export const PRESET_DAYS = [7, 30, 90] as const;
export type PresetDays = (typeof PRESET_DAYS)[number];

export interface BrandSearch {
  days?: PresetDays;
  from?: string;
  to?: string;
  engine?: string;
  tag?: string;
}

/** A prompt tag as the API stores it: lower-case, 1–40 letters, digits, spaces, `-`, `_` or `:`. */
export function cleanTag(value: string): string {
  return value.normalize("NFKC").toLocaleLowerCase("en").replace(/\s+/g, " ").trim();
}

export function isTag(value: string): boolean {
  return value.length >= 1 && value.length <= 40 && /^[\p{L}\p{N} _:-]+$/u.test(value);
}

/** The longest custom range the API accepts. */
export const MAX_DAYS = 400;
const DAY = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(value: unknown): value is string {
  return typeof value === "string" && ISO_DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

/** Reads the shared filters from raw search params; anything malformed falls back to the default. */
export function parseBrandSearch(search: Record<string, unknown>): BrandSearch {
  const out: BrandSearch = {};
  const days = Number(search.days);
  if (PRESET_DAYS.includes(days as PresetDays)) out.days = days as PresetDays;
  if (isDay(search.from) && isDay(search.to) && search.from <= search.to) {
    const span = (Date.parse(search.to) - Date.parse(search.from)) / DAY + 1;
    if (span <= MAX_DAYS) {
      out.from = search.from;
      out.to = search.to;
      delete out.days;
    }
  }
  if (typeof search.engine === "string" && /^[a-z0-9_-]{1,40}$/.test(search.engine)) out.engine = search.engine;
  if (typeof search.tag === "string" && isTag(cleanTag(search.tag))) out.tag = cleanTag(search.tag);
  return out;
}

/** Only the shared filters of a search (what the brand's sub-navigation carries from page to page). */
export function sharedFilters(search: BrandSearch): BrandSearch {
  const out: BrandSearch = {};
  if (search.days) out.days = search.days;
  if (search.from && search.to) {
    out.from = search.from;
    out.to = search.to;
  }
  if (search.engine) out.engine = search.engine;
  if (search.tag) out.tag = search.tag;
  return out;
}

export type Interval = "day" | "week" | "month";

export interface Period {
  /** ISO instants sent to the API: `[from, to)`. */
  from: string;
  to: string;
  /** Whole days counted, both ends included. */
  days: number;
  /** The first and the last day, YYYY-MM-DD. */
  firstDay: string;
  lastDay: string;
  custom: boolean;
  /** "Last 30 days" or "1–15 Nov 2026". */
  label: string;
  /** The series' bucket: days up to a month, weeks up to half a year, months beyond. */
  interval: Interval;
  /** The prompt tag the figures keep (`?tag=`): part of the scope every query of a brand view sends. */
  tag?: string;
}

/** The period inside a sentence: "the last 30 days", or "Nov 1 – Nov 15, 2026" as it is. */
export function periodPhrase(period: Pick<Period, "custom" | "label">): string {
  return period.custom ? period.label : `the ${period.label.toLowerCase()}`;
}

function dayString(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

const rangeFormat = new Intl.DateTimeFormat(undefined, {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

/** "1 Nov 2026 – 15 Nov 2026" (the locale shortens the shared parts where it can). */
export function formatDayRange(firstDay: string, lastDay: string): string {
  const first = new Date(`${firstDay}T00:00:00Z`);
  const last = new Date(`${lastDay}T00:00:00Z`);
  return rangeFormat.formatRange(first, last);
}

export function resolvePeriod(search: BrandSearch, now: Date = new Date()): Period {
  const today = Date.parse(`${dayString(now.getTime())}T00:00:00Z`);
  let first: number;
  let last: number;
  const custom = Boolean(search.from && search.to);
  if (search.from && search.to) {
    first = Date.parse(`${search.from}T00:00:00Z`);
    last = Date.parse(`${search.to}T00:00:00Z`);
  } else {
    const days = search.days ?? 30;
    last = today;
    first = today - (days - 1) * DAY;
  }
  const days = Math.round((last - first) / DAY) + 1;
  const firstDay = dayString(first);
  const lastDay = dayString(last);
  return {
    from: new Date(first).toISOString(),
    to: new Date(last + DAY).toISOString(),
    days,
    firstDay,
    lastDay,
    custom,
    label: custom ? formatDayRange(firstDay, lastDay) : `Last ${days} days`,
    interval: days <= 31 ? "day" : days <= 185 ? "week" : "month",
    ...(search.tag ? { tag: search.tag } : {}),
  };
}

/** Query string of the API's common parameters: from, to, engine, the period's tag, and any extra ones. */
export function periodQuery(
  period: Period,
  engine: string | undefined,
): { from: string; to: string; engine?: string; tag?: string } {
  return {
    from: period.from,
    to: period.to,
    ...(engine ? { engine } : {}),
    ...(period.tag ? { tag: period.tag } : {}),
  };
}

const bucketDay = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", timeZone: "UTC" });
const bucketMonth = new Intl.DateTimeFormat(undefined, { month: "short", year: "numeric", timeZone: "UTC" });

/** A series bucket's start as an axis label: "23 Nov" for days and weeks, "Nov 2026" for months. */
export function bucketLabel(start: string, interval: Interval): string {
  const date = new Date(start);
  return interval === "month" ? bucketMonth.format(date) : bucketDay.format(date);
}
