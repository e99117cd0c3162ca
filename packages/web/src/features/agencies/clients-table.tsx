import { Link } from "@tanstack/react-router";
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon, SheetIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Button } from "../../components/ui/button.tsx";
import { RelativeText } from "../../components/when.tsx";
import { downloadCsv, fileSlug } from "../../lib/csv.ts";
import { interval, percent, points, sampleSize } from "../../lib/figures.ts";
import { formatNumber } from "../../lib/format.ts";
import { cn } from "../../lib/utils.ts";
import { SignificantMark } from "../analytics/significance.tsx";
import type { AgencyClient } from "./agencies-api.ts";
import { clientsCsv } from "./clients-csv.ts";
import { type ClientSortKey, firstDirection, type SortDirection, sortClients } from "./clients-sort.ts";
import { CreditCapDialog } from "./credit-cap-dialog.tsx";

const COLUMNS: { key: ClientSortKey; label: string; numeric?: boolean }[] = [
  { key: "name", label: "Client" },
  { key: "brands", label: "Brands", numeric: true },
  { key: "visibility", label: "Visibility, last 30 days" },
  { key: "change", label: "Change vs previous 30 days" },
  { key: "alerts", label: "Open alerts", numeric: true },
  { key: "credits", label: "Credits this month" },
  { key: "last_run", label: "Last run" },
  { key: "next_run", label: "Next run" },
];

/** The first column stays in view while the others scroll sideways on a phone. */
const STICKY = "sticky left-0 z-10 bg-card";

/**
 * Every client of the agency in one table: sorted by any column (click its heading again to turn
 * the order), exported as CSV with the rows as shown; admins edit a client's cap from its row.
 */
export function ClientsTable({
  agencyName,
  agencyId,
  clients,
  canManage,
}: {
  agencyName: string;
  agencyId: string;
  clients: AgencyClient[];
  canManage: boolean;
}) {
  const [sort, setSort] = useState<{ key: ClientSortKey; direction: SortDirection }>({
    key: "name",
    direction: "ascending",
  });
  const rows = sortClients(clients, sort.key, sort.direction);

  function sortBy(key: ClientSortKey) {
    setSort((now) =>
      now.key === key
        ? { key, direction: now.direction === "ascending" ? "descending" : "ascending" }
        : { key, direction: firstDirection(key) },
    );
  }

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground" aria-live="polite">
          Sorted by {COLUMNS.find((c) => c.key === sort.key)?.label.toLowerCase()}, {sort.direction}. Click a column's
          heading to sort by it<span className="md:hidden">; swipe the table sideways for every column</span>.
        </p>
        <Button
          variant="outline"
          size="sm"
          onClick={() =>
            downloadCsv(
              clientsCsv(rows),
              `${fileSlug(agencyName, "clients", new Date().toISOString().slice(0, 10))}.csv`,
            )
          }
        >
          <SheetIcon aria-hidden="true" />
          Export CSV
        </Button>
      </div>
      <div className="relative w-full overflow-x-auto">
        <table className="w-full min-w-[60rem] text-sm">
          <thead className="border-b">
            <tr>
              {COLUMNS.map((column, index) => {
                const active = sort.key === column.key;
                const Icon = !active ? ArrowUpDownIcon : sort.direction === "ascending" ? ArrowUpIcon : ArrowDownIcon;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={active ? sort.direction : undefined}
                    className={cn(
                      "h-10 px-2 text-left align-bottom text-xs font-medium text-muted-foreground",
                      index === 0 && cn(STICKY, "pl-0"),
                      column.numeric && "text-right",
                    )}
                  >
                    <button
                      type="button"
                      onClick={() => sortBy(column.key)}
                      className={cn(
                        "inline-flex items-center gap-1 rounded-sm px-1 py-1 text-left hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
                        active && "text-foreground",
                      )}
                    >
                      {column.label}
                      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.map((client) => (
              <ClientRow key={client.id} agencyId={agencyId} client={client} canManage={canManage} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Cell({ className, children }: { className?: string; children: ReactNode }) {
  return <td className={cn("px-3 py-3 align-top", className)}>{children}</td>;
}

function ClientRow({ agencyId, client, canManage }: { agencyId: string; client: AgencyClient; canManage: boolean }) {
  const { visibility } = client;
  const capReached = client.credit_cap !== null && client.credits_used >= client.credit_cap;
  return (
    <tr className="border-b last:border-0">
      <th scope="row" className={cn(STICKY, "max-w-[12rem] py-3 pr-3 text-left align-top font-medium")}>
        <Link
          to="/w/$workspaceId"
          params={{ workspaceId: client.id }}
          className="break-words text-primary underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {client.name}
        </Link>
      </th>
      <Cell className="text-right tabular-nums">{formatNumber(client.brands)}</Cell>
      <Cell className="tabular-nums">
        {visibility.n === 0 || visibility.value === null ? (
          <span className="text-muted-foreground">no answers yet</span>
        ) : (
          <span className="grid">
            <span className="font-semibold">{percent(visibility.value)}</span>
            <span className="text-xs whitespace-nowrap text-muted-foreground">
              {interval(visibility)}, {sampleSize(visibility.n)}
            </span>
          </span>
        )}
      </Cell>
      <Cell className="tabular-nums">
        {client.visibility_change === null ? (
          <span className="text-muted-foreground">no comparison</span>
        ) : (
          <span className="flex flex-wrap items-center gap-1.5">
            <span
              className={cn(
                "whitespace-nowrap",
                client.visibility_change_significant && client.visibility_change > 0 && "text-success",
                client.visibility_change_significant && client.visibility_change < 0 && "text-destructive",
              )}
            >
              {points(client.visibility_change)}
            </span>
            {client.visibility_change_significant && <SignificantMark significant />}
          </span>
        )}
      </Cell>
      <Cell className={cn("text-right tabular-nums", client.open_alerts > 0 && "font-semibold text-warning")}>
        {formatNumber(client.open_alerts)}
      </Cell>
      <Cell className="tabular-nums">
        <span className="flex items-center gap-1 whitespace-nowrap">
          <span className={cn(capReached && "font-semibold text-destructive")}>
            {client.credit_cap === null
              ? `${formatNumber(client.credits_used)} (no cap)`
              : `${formatNumber(client.credits_used)} of ${formatNumber(client.credit_cap)}`}
          </span>
          {canManage && <CreditCapDialog agencyId={agencyId} client={client} />}
        </span>
        {capReached && <span className="block text-xs text-destructive">cap reached</span>}
      </Cell>
      <Cell className="whitespace-nowrap">
        <RelativeText value={client.last_run_at} fallback="Never" />
      </Cell>
      <Cell className="whitespace-nowrap">
        <RelativeText value={client.next_run_at} fallback="Not scheduled" />
      </Cell>
    </tr>
  );
}
