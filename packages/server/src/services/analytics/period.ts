import { validationError } from "../../errors/api-error.ts";
import type { Clock } from "../../lib/clock.ts";
import { timeRange } from "../time-range.ts";

const DAY_MS = 86_400_000;
const MAX_DAYS = 400;
const DEFAULT_DAYS = 30;

export type Interval = "day" | "week" | "month";

/** Whole UTC days [fromDay, toDay), as the rollups count them. */
export interface Period {
  from: string;
  to: string;
  /** YYYY-MM-DD, first day in. */
  fromDay: string;
  /** YYYY-MM-DD, first day out. */
  toDay: string;
  days: number;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

function fromDays(fromDay: string, toDay: string): Period {
  return {
    from: `${fromDay}T00:00:00.000Z`,
    to: `${toDay}T00:00:00.000Z`,
    fromDay,
    toDay,
    days: Math.round((startOf(toDay) - startOf(fromDay)) / DAY_MS),
  };
}

/**
 * The period a request asks for, in whole UTC days: `to` (now by default) includes the day it falls
 * in unless it is that day's midnight; `from` (30 days before by default) includes its day.
 */
export function periodOf(input: { from?: string; to?: string }, clock: Clock): Period {
  const range = timeRange(input);
  const to = range.to ?? clock.now().toISOString();
  const toMs = Date.parse(to);
  const toDay = toMs === startOf(dayOf(toMs)) ? dayOf(toMs) : dayOf(toMs + DAY_MS);
  const fromDay = range.from === undefined ? dayOf(startOf(toDay) - DEFAULT_DAYS * DAY_MS) : range.from.slice(0, 10);
  const period = fromDays(fromDay, toDay);
  if (period.days <= 0) throw validationError([{ field: "to", issue: "must be after from" }]);
  if (period.days > MAX_DAYS)
    throw validationError([{ field: "from", issue: `the period can span at most ${MAX_DAYS} days` }]);
  return period;
}

/** The period of the same length just before. */
export function previousOf(period: Period): Period {
  return fromDays(dayOf(startOf(period.fromDay) - period.days * DAY_MS), period.fromDay);
}

/** The start (YYYY-MM-DD) of the bucket a day falls in: the day, its week's Monday, its month's first. */
export function bucketOf(day: string, interval: Interval): string {
  if (interval === "day") return day;
  if (interval === "month") return `${day.slice(0, 7)}-01`;
  const ms = startOf(day);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0
  return dayOf(ms - weekday * DAY_MS);
}

function nextBucket(start: string, interval: Interval): string {
  if (interval === "day") return dayOf(startOf(start) + DAY_MS);
  if (interval === "week") return dayOf(startOf(start) + 7 * DAY_MS);
  const date = new Date(startOf(start));
  return dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
}

// Days as text (YYYY-MM-DD) compare in calendar order; Math.min and Math.max take only numbers.
function laterDay(a: string, b: string): string {
  return a > b ? a : b;
}

function earlierDay(a: string, b: string): string {
  return a < b ? a : b;
}

/** Every bucket overlapping the period, clipped to it: `[start, end)` as ISO timestamps. */
export function bucketsOf(period: Period, interval: Interval): { key: string; start: string; end: string }[] {
  const out: { key: string; start: string; end: string }[] = [];
  for (let key = bucketOf(period.fromDay, interval); key < period.toDay; key = nextBucket(key, interval)) {
    const next = nextBucket(key, interval);
    const start = laterDay(key, period.fromDay);
    const end = earlierDay(next, period.toDay);
    out.push({ key, start: `${start}T00:00:00.000Z`, end: `${end}T00:00:00.000Z` });
  }
  return out;
}

/** A run of rollup rows of one grain: `start` in [from, to). */
export interface Span {
  grain: "day" | "week";
  from: string;
  to: string;
}

/**
 * Days [fromDay, toDay) as the fewest rollup rows cover them: the whole weeks inside (Monday to
 * Monday), and the days before and after them. 90 days are at most 13 weeks and 12 days.
 */
export function spansOf(fromDay: string, toDay: string): Span[] {
  const firstMonday = bucketOf(fromDay, "week") === fromDay ? fromDay : nextBucket(bucketOf(fromDay, "week"), "week");
  const lastMonday = bucketOf(toDay, "week");
  if (firstMonday >= lastMonday) return [{ grain: "day", from: fromDay, to: toDay }];
  const spans: Span[] = [];
  if (fromDay < firstMonday) spans.push({ grain: "day", from: fromDay, to: firstMonday });
  spans.push({ grain: "week", from: firstMonday, to: lastMonday });
  if (lastMonday < toDay) spans.push({ grain: "day", from: lastMonday, to: toDay });
  return spans;
}
