import { validationError } from "../errors/api-error.ts";

/** Whether the YYYY-MM-DD a value starts with is a day of the calendar (Date.parse rolls 02-30 over). */
function realDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function instant(field: string, value: string): string {
  const parsed = Date.parse(value);
  if (!realDay(value) || Number.isNaN(parsed)) {
    throw validationError([
      { field, issue: "must be an ISO 8601 date or date-time, e.g. 2026-11-01 or 2026-11-01T00:00:00Z" },
    ]);
  }
  return new Date(parsed).toISOString();
}

/**
 * A list filter's half-open range [from, to), as ISO 8601 UTC timestamps comparable as text;
 * dates without a time are midnight UTC.
 */
export function timeRange(filters: { from?: string; to?: string }): { from?: string; to?: string } {
  const from = filters.from === undefined ? undefined : instant("from", filters.from);
  const to = filters.to === undefined ? undefined : instant("to", filters.to);
  if (from !== undefined && to !== undefined && from >= to) {
    throw validationError([{ field: "to", issue: "must be after from (the range is [from, to))" }]);
  }
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}
