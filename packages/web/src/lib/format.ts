/** Dates, numbers and names as a person reads them, in the browser's locale. */

import { ENGINE_TITLES } from "../generated/labels.ts";

const dateFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
});
const numberFormat = new Intl.NumberFormat();
const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "23 Nov 2027" (or the locale's order). */
export function formatDate(iso: string | Date): string {
  return dateFormat.format(typeof iso === "string" ? new Date(iso) : iso);
}

/** "23 Nov 2027, 14:05". */
export function formatDateTime(iso: string | Date): string {
  return dateTimeFormat.format(typeof iso === "string" ? new Date(iso) : iso);
}

/** "Nov 24, 2026, 9:15 AM CET": a moment as the clock of `timeZone` shows it (a schedule's zone, say). */
export function formatDateTimeIn(iso: string | Date, timeZone: string): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  try {
    return new Intl.DateTimeFormat(undefined, {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZone,
      timeZoneName: "short",
    }).format(date);
  } catch {
    return dateTimeFormat.format(date);
  }
}

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

const usdFormat = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const smallUsdFormat = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumSignificantDigits: 2,
});

/** "$12.40"; amounts under a cent keep two significant digits ("$0.0042"), so that one answer's cost shows. */
export function formatUsd(value: number): string {
  return value > 0 && value < 0.01 ? smallUsdFormat.format(value) : usdFormat.format(value);
}

/** Singular or plural with the number: "1 credit", "1,200 credits". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 minutes ago", "yesterday", "just now". */
export function formatRelative(iso: string, now: Date = new Date()): string {
  const seconds = (new Date(iso).getTime() - now.getTime()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

/** "growth" → "Growth"; custom plan names keep their own spelling past the first letter. */
export function planName(plan: string): string {
  return plan === "" ? plan : `${plan.charAt(0).toUpperCase()}${plan.slice(1).replace(/[_-]/g, " ")}`;
}

export function engineName(engine: string): string {
  return (
    (Object.hasOwn(ENGINE_TITLES, engine) ? ENGINE_TITLES[engine as keyof typeof ENGINE_TITLES] : undefined) ??
    planName(engine)
  );
}
