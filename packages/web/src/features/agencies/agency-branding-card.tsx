import { useQuery, useQueryClient } from "@tanstack/react-query";
import { QueryState, RoleNote } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { BrandingForm } from "../branding/branding-form.tsx";
import { agencyBrandingQuery, updateAgencyBranding } from "./agencies-api.ts";
import { useAgency } from "./agency-context.tsx";
import { agencyRoleAtLeast } from "./agency-roles.ts";

/**
 * The agency's branding, which every client inherits (report pages and PDFs, shared links, pitches,
 * e-mails) unless a client's workspace sets its own. The same form as a workspace's.
 */
export function AgencyBrandingCard() {
  const agency = useAgency();
  const queryClient = useQueryClient();
  const canChange = agencyRoleAtLeast(agency.role, "admin");
  const branding = useQuery(agencyBrandingQuery(agency.id));
  return (
    <SectionCard
      id="branding"
      titleId="agency-branding-title"
      title="Agency branding"
      description="Your agency's name, logo and colours on everything every client sees: report pages and PDFs, shared links, pitches and e-mails. A client's own branding, set in its workspace's settings, comes first."
      contentClassName="grid gap-4"
    >
      {!canChange && <RoleNote>Only the agency's admins can change its branding. You can see how it looks.</RoleNote>}
      <QueryState query={branding} loading="Loading the branding…" error="The branding could not be loaded" />
      {branding.data && (
        <BrandingForm
          key={branding.data.updated_at ?? "default"}
          saved={branding.data}
          readOnly={!canChange}
          fallback="the agency's name"
          save={async (change) => {
            const updated = await updateAgencyBranding(agency.id, change);
            queryClient.setQueryData(agencyBrandingQuery(agency.id).queryKey, updated);
          }}
        />
      )}
    </SectionCard>
  );
}
