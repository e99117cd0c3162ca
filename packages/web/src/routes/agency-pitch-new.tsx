import { BackLink } from "../components/back-link.tsx";
import { RoleNote } from "../components/page-states.tsx";
import { SectionCard } from "../components/section-card.tsx";
import { useAgency } from "../features/agencies/agency-context.tsx";
import { agencyRoleAtLeast } from "../features/agencies/agency-roles.ts";
import { NewPitchForm } from "../features/pitches/new-pitch-form.tsx";
import { useTitle } from "../lib/use-title.ts";

/** `/agency/:agencyId/pitches/new`: a pitch starts from the prospect's website. */
export function NewPitchPage() {
  const agency = useAgency();
  useTitle(`New pitch · ${agency.name}`);
  return (
    <div className="grid gap-4">
      <BackLink to="/agency/$agencyId/pitches" params={{ agencyId: agency.id }}>
        All pitches
      </BackLink>
      <SectionCard
        titleId="new-pitch-title"
        title="New pitch"
        description="Step 1 of 3: the prospect's website. Then confirm its name, competitors and prompts, and run it; the report comes with a link to send."
        contentClassName="grid gap-4"
      >
        {agencyRoleAtLeast(agency.role, "strategist") ? (
          <NewPitchForm agencyId={agency.id} />
        ) : (
          <RoleNote>Only the agency's strategists and admins make pitches.</RoleNote>
        )}
      </SectionCard>
    </div>
  );
}
