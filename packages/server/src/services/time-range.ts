import { validationError } from "../errors/api-error.ts";

function instant(field: string, value: string): string {
  const parsed = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(parsed)) {
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
