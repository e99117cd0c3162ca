import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { CopyField } from "../../components/copy-field.tsx";
import { NameForm } from "../../components/name-form.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { keys } from "../../lib/queries.ts";
import { renameAgency } from "./agencies-api.ts";
import { useAgency } from "./agency-context.tsx";
import { agencyRoleAtLeast } from "./agency-roles.ts";

/** The agency's own name (the one its staff see; clients see its branding's) and its id. */
export function AgencyCard() {
  const agency = useAgency();
  return (
    <SectionCard
      id="agency"
      titleId="agency-title"
      title="Agency"
      description="Its name as your staff see it in Sightline. Clients see the name in the branding below."
      contentClassName="grid gap-6"
    >
      {agencyRoleAtLeast(agency.role, "admin") ? (
        <RenameAgencyForm key={agency.name} />
      ) : (
        <div>
          <p className="text-sm font-medium">Agency name</p>
          <p className="mt-1 text-sm">{agency.name}</p>
        </div>
      )}
      <div className="grid gap-1">
        <CopyField label="Agency ID" value={agency.id} />
        <p className="text-xs text-muted-foreground">Used by the command-line tool and in support requests.</p>
      </div>
    </SectionCard>
  );
}

function RenameAgencyForm() {
  const agency = useAgency();
  const queryClient = useQueryClient();
  return (
    <NameForm
      label="Agency name"
      name="agency-name"
      autoComplete="organization"
      current={agency.name}
      missing="The agency needs a name."
      save={async (name) => {
        await renameAgency(agency.id, name);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: keys.agencies }),
          queryClient.invalidateQueries({ queryKey: keys.me }),
        ]);
        toast.success("Agency renamed");
      }}
    />
  );
}
