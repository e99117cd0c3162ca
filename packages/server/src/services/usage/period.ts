export interface BillingPeriod {
  /** Inclusive, ISO 8601 UTC. */
  start: string;
  /** Exclusive, ISO 8601 UTC. */
  end: string;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The anchor's day in a given month, clamped to the month's length (31 → 28 in February). */
function anchoredDate(year: number, month: number, day: number): Date {
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  return new Date(Date.UTC(y, m, Math.min(day, daysInMonth(y, m))));
}

/**
 * The monthly billing period containing `now`, anchored on the day of month of the workspace's
 * billing anchor (`YYYY-MM-DD`), at 00:00 UTC. An anchor on the 31st renews on the last day of
 * shorter months.
 */
/** The last period computed, per anchor: asked on every metered request, it changes once a month. */
const recent = new Map<string, BillingPeriod>();

export function billingPeriod(anchor: string, now: Date): BillingPeriod {
  const known = recent.get(anchor);
  const time = now.getTime();
  if (known !== undefined && Date.parse(known.start) <= time && time < Date.parse(known.end)) return known;
  const period = computePeriod(anchor, now);
  if (recent.size >= 10_000) recent.clear();
  recent.set(anchor, period);
  return period;
}

function computePeriod(anchor: string, now: Date): BillingPeriod {
  const day = Number(anchor.slice(8, 10));
  let year = now.getUTCFullYear();
  let month = now.getUTCMonth();
  let start = anchoredDate(year, month, day);
  if (start.getTime() > now.getTime()) {
    month -= 1;
    start = anchoredDate(year, month, day);
  }
  year = start.getUTCFullYear();
  month = start.getUTCMonth();
  const end = anchoredDate(year, month + 1, day);
  return { start: start.toISOString(), end: end.toISOString() };
}

/** The billing period before `period` (not memoised: the current one stays remembered). */
export function previousPeriod(anchor: string, period: BillingPeriod): BillingPeriod {
  return computePeriod(anchor, new Date(Date.parse(period.start) - 1));
}
