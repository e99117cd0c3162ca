import type { CsvCell } from "../../lib/csv.ts";
import { pct } from "../charts/chart-parts.tsx";
import type { AgencyClient } from "./agencies-api.ts";

/**
 * The clients table as a spreadsheet reads it: the same rows in the same order, each figure in its
 * own column with its unit in the heading (percentages 0–100, the interval's bounds, n), ids kept.
 */
export function clientsCsv(clients: readonly AgencyClient[]): CsvCell[][] {
  return [
    [
      "Client",
      "Workspace ID",
      "Brands",
      "Visibility, last 30 days (%)",
      "95% low (%)",
      "95% high (%)",
      "Answers (n)",
      "Change vs previous 30 days (pts)",
      "Significant",
      "Open alerts",
      "Credits used this month",
      "Credit cap",
      "Last run (UTC)",
      "Next run (UTC)",
    ],
    ...clients.map((c) => [
      c.name,
      c.id,
      c.brands,
      c.visibility.n === 0 ? null : pct(c.visibility.value),
      pct(c.visibility.ci_low),
      pct(c.visibility.ci_high),
      c.visibility.n,
      pct(c.visibility_change),
      c.visibility_change_significant === null ? null : c.visibility_change_significant ? "yes" : "no",
      c.open_alerts,
      c.credits_used,
      c.credit_cap ?? "no cap",
      c.last_run_at,
      c.next_run_at,
    ]),
  ];
}
