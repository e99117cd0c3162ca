import { CronExpressionParser } from "cron-parser";
import type { ErrorDetail } from "../../errors/api-error.ts";
import { WEEKDAYS } from "./schemas.ts";
import type { ScheduleSpec, ScheduleSpecInput } from "./types.ts";

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MINIMUM_INTERVAL_MS = 3_600_000;

export function isTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone.includes("/") || zone === "UTC";
  } catch {
    return false;
  }
}

/**
 * A schedule as a cron expression (minute hour day month weekday), evaluated in the schedule's
 * time zone: `{every: "hour"}` at minute 0, `{every: "day", at: "09:00"}` daily (midnight by default),
 * `{every: "week", weekday: "monday", at}` weekly (Monday by default), or `{cron}` as given.
 */
export function toCron(spec: ScheduleSpec, details: ErrorDetail[]): string {
  if ("cron" in spec) return spec.cron.trim();
  if (spec.every === "hour") return "0 * * * *";
  const at = spec.at ?? "00:00";
  const time = TIME.exec(at);
  if (time === null) {
    details.push({ field: "schedule.at", issue: "must be a time of day as HH:MM, e.g. 09:30" });
    return "0 0 * * *";
  }
  const [hours, minutes] = [Number(time[1]), Number(time[2])];
  if (spec.every === "day") return `${minutes} ${hours} * * *`;
  const weekday = WEEKDAYS.indexOf(spec.weekday ?? "monday");
  return `${minutes} ${hours} * * ${weekday}`;
}

function parse(cron: string, timezone: string, from: Date) {
  return CronExpressionParser.parse(cron, { currentDate: from, tz: timezone });
}

/** Checks a cron expression and that its runs are at least an hour apart. */
export function checkCron(cron: string, timezone: string, details: ErrorDetail[], field = "schedule.cron"): void {
  let expression: ReturnType<typeof parse>;
  try {
    expression = parse(cron, timezone, new Date("2026-01-05T00:00:00Z"));
  } catch (error) {
    details.push({ field, issue: `is not a valid cron expression: ${(error as Error).message}` });
    return;
  }
  if (cron.split(/\s+/).length !== 5) {
    details.push({ field, issue: "must have five fields: minute hour day-of-month month day-of-week" });
    return;
  }
  let previous = expression.next().toDate().getTime();
  for (let i = 0; i < 50; i++) {
    const next = expression.next().toDate().getTime();
    if (next - previous < MINIMUM_INTERVAL_MS) {
      details.push({ field, issue: "runs more often than once an hour; monitoring runs at most hourly" });
      return;
    }
    previous = next;
  }
}

/** The first slot strictly after `from`. */
export function nextSlot(cron: string, timezone: string, from: Date): Date {
  return parse(cron, timezone, from).next().toDate();
}

/** The latest slot at or before `at`. */
export function latestSlot(cron: string, timezone: string, at: Date): Date {
  const probe = new Date(at.getTime() + 1);
  return parse(cron, timezone, probe).prev().toDate();
}

export function checkSpec(input: ScheduleSpecInput, details: ErrorDetail[]): ScheduleSpec {
  if ((input.every === undefined) === (input.cron === undefined)) {
    details.push({ field: "schedule", issue: "needs exactly one of every or cron" });
    return { every: "day" };
  }
  if (input.cron !== undefined) {
    if (input.at !== undefined || input.weekday !== undefined)
      details.push({ field: "schedule", issue: "at and weekday go with every, not cron" });
    return { cron: input.cron.trim() };
  }
  if (input.every === "hour") {
    if (input.at !== undefined || input.weekday !== undefined)
      details.push({ field: "schedule", issue: "an hourly schedule takes no at or weekday" });
    return { every: "hour" };
  }
  if (input.every === "day") {
    if (input.weekday !== undefined) details.push({ field: "schedule.weekday", issue: "goes with every: week" });
    return input.at === undefined ? { every: "day" } : { every: "day", at: input.at };
  }
  return {
    every: "week",
    ...(input.at === undefined ? {} : { at: input.at }),
    ...(input.weekday === undefined ? {} : { weekday: input.weekday }),
  };
}
