import { Link } from "@tanstack/react-router";
import { PlusIcon } from "lucide-react";
import { SectionCard } from "../components/section-card.tsx";
import { Button } from "../components/ui/button.tsx";
import { useAgency } from "../features/agencies/agency-context.tsx";
import { agencyRoleAtLeast } from "../features/agencies/agency-roles.ts";
import { PitchesList } from "../features/pitches/pitches-list.tsx";
import { useTitle } from "../lib/use-title.ts";

/** `/agency/:agencyId/pitches`: the agency's pitches, and "New pitch" for strategists and admins. */
export function AgencyPitchesPage() {
  const agency = useAgency();
  useTitle(`Pitches · ${agency.name}`);
  return (
    <SectionCard
      titleId="pitches-title"
      title="Pitches"
      description="A one-off analysis of a prospect from its website: how often AI engines name it against its competitors, in a report under your agency's name that opens by a link, without an account. A pitch is paid from the pool and appears among no client."
      actions={
        agencyRoleAtLeast(agency.role, "strategist") && (
          <Button asChild>
            <Link to="/agency/$agencyId/pitches/new" params={{ agencyId: agency.id }}>
              <PlusIcon aria-hidden="true" />
              New pitch
            </Link>
          </Button>
        )
      }
      contentClassName="grid gap-4"
    >
      <PitchesList agencyId={agency.id} role={agency.role} />
    </SectionCard>
  );
}
