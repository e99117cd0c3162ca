import { useQuery } from "@tanstack/react-query";
import { UsersIcon } from "lucide-react";
import { EmptyState, QueryState, RoleNote } from "../components/page-states.tsx";
import { SectionCard } from "../components/section-card.tsx";
import { AddClientDialog } from "../features/agencies/add-client-dialog.tsx";
import { clientsQuery } from "../features/agencies/agencies-api.ts";
import { useAgency } from "../features/agencies/agency-context.tsx";
import { agencyRoleAtLeast } from "../features/agencies/agency-roles.ts";
import { ClientsTable } from "../features/agencies/clients-table.tsx";
import { SignificanceNote } from "../features/analytics/significance.tsx";
import { formatDayRange } from "../lib/period.ts";
import { useTitle } from "../lib/use-title.ts";

/** The day before an exclusive end: "to 2 Dec 00:00" is the 1st's last day. */
function lastDayOf(end: string): string {
  return new Date(Date.parse(end) - 1).toISOString().slice(0, 10);
}

/** `/agency/:agencyId`: every client at a glance, for the agency's staff. */
export function AgencyHomePage() {
  const agency = useAgency();
  const canManage = agencyRoleAtLeast(agency.role, "admin");
  const clients = useQuery(clientsQuery(agency.id));
  useTitle(`Clients · ${agency.name}`);
  const period = clients.data ? formatDayRange(clients.data.from.slice(0, 10), lastDayOf(clients.data.to)) : null;

  return (
    <SectionCard
      titleId="clients-title"
      title="Clients"
      description={
        <>
          Each client's visibility{period ? ` from ${period}` : ", last 30 days"}: the share of its brands' answers that
          name them, with the 95% interval and the number of answers n; its change in points against the 30 days before;
          its open alerts; and the credits it used of the pool this month against its cap.
        </>
      }
      actions={canManage && <AddClientDialog agencyId={agency.id} />}
      contentClassName="grid gap-4"
    >
      {!canManage && <RoleNote>Only the agency's admins can add clients or change their caps.</RoleNote>}
      <QueryState query={clients} loading="Loading the clients…" error="The clients could not be loaded" />
      {clients.data?.data.length === 0 && (
        <EmptyState icon={<UsersIcon />} title="No clients yet">
          {canManage
            ? "Add your first client: it gets a workspace of its own, on the agency's credit pool."
            : "An admin of the agency adds clients; they will appear here."}
        </EmptyState>
      )}
      {clients.data && clients.data.data.length > 0 && (
        <>
          <ClientsTable
            agencyId={agency.id}
            agencyName={agency.name}
            clients={clients.data.data}
            canManage={canManage}
          />
          {clients.data.data.some((client) => client.visibility_change !== null) && <SignificanceNote />}
        </>
      )}
    </SectionCard>
  );
}
