/** The first instant (UTC) of `date`'s month, or of the month `offset` months from it. */
export function monthStart(date: Date, offset = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
}

/** A month as 'YYYY-MM' (UTC), the name of its partition: `date`'s, or the one `offset` months from it. */
export function monthOf(date: Date, offset = 0): string {
  return monthStart(date, offset).toISOString().slice(0, 7);
}
