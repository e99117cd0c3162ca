import type { AgencyClient } from "./agencies-api.ts";

/** The columns of the agency's clients table, each sortable. */
export type ClientSortKey =
  | "name"
  | "brands"
  | "visibility"
  | "change"
  | "alerts"
  | "credits"
  | "last_run"
  | "next_run";
export type SortDirection = "ascending" | "descending";

/** What each column sorts by; null (nothing measured, never run) always sorts last. */
const VALUE: Record<ClientSortKey, (client: AgencyClient) => string | number | null> = {
  name: (c) => c.name,
  brands: (c) => c.brands,
  visibility: (c) => (c.visibility.n === 0 ? null : c.visibility.value),
  change: (c) => c.visibility_change,
  alerts: (c) => c.open_alerts,
  credits: (c) => c.credits_used,
  last_run: (c) => (c.last_run_at === null ? null : Date.parse(c.last_run_at)),
  next_run: (c) => (c.next_run_at === null ? null : Date.parse(c.next_run_at)),
};

/**
 * A column's first direction when it is clicked: names A to Z and the next run soonest first;
 * figures, alerts, credits and the last run largest or latest first, which is what one looks for.
 */
export function firstDirection(key: ClientSortKey): SortDirection {
  return key === "name" || key === "next_run" ? "ascending" : "descending";
}

/** The clients sorted by one column (ties by name), without changing the list given. */
export function sortClients(
  clients: readonly AgencyClient[],
  key: ClientSortKey,
  direction: SortDirection,
): AgencyClient[] {
  const read = VALUE[key];
  const sign = direction === "ascending" ? 1 : -1;
  const byName = (a: AgencyClient, b: AgencyClient) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  return [...clients].sort((a, b) => {
    const x = read(a);
    const y = read(b);
    if (x === null || y === null) return x === y ? byName(a, b) : x === null ? 1 : -1;
    const order = typeof x === "string" && typeof y === "string" ? x.localeCompare(y) : Number(x) - Number(y);
    return order === 0 ? byName(a, b) : sign * order;
  });
}
