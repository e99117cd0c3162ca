import { AgencyBrandingCard } from "../features/agencies/agency-branding-card.tsx";
import { AgencyCard } from "../features/agencies/agency-card.tsx";
import { useAgency } from "../features/agencies/agency-context.tsx";
import { StaffCard } from "../features/agencies/staff-card.tsx";
import { useTitle } from "../lib/use-title.ts";

/** `/agency/:agencyId/settings`: who works for the agency, how its clients see it, and its name. */
export function AgencySettingsPage() {
  const agency = useAgency();
  useTitle(`Staff and branding · ${agency.name}`);
  return (
    <div className="grid gap-6">
      <StaffCard />
      <AgencyBrandingCard />
      <AgencyCard />
    </div>
  );
}
