import { useQuery, useQueryClient } from "@tanstack/react-query";
import { QueryState, RoleNote } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { atLeast } from "../../lib/roles.ts";
import { useWorkspace } from "../workspace/workspace-context.tsx";
import { brandingQuery, updateBranding } from "./branding-api.ts";
import { BrandingForm } from "./branding-form.tsx";

/** Settings → Branding: how what the workspace sends to its clients looks. Everyone sees it; admins and owners change it. */
export function BrandingCard() {
  const workspace = useWorkspace();
  const canChange = atLeast(workspace.role, "admin");
  const queryClient = useQueryClient();
  const branding = useQuery(brandingQuery(workspace.id));
  return (
    <SectionCard
      id="branding"
      titleId="branding-title"
      title="Branding"
      description="Your name, logo and colours on everything your clients see: report pages and PDFs, shared report links, and alert, digest and invitation e-mails."
      contentClassName="grid gap-4"
    >
      {!canChange && <RoleNote>Only admins and owners can change the branding. You can see how it looks.</RoleNote>}
      <QueryState query={branding} loading="Loading the branding…" error="The branding could not be loaded" />
      {branding.data && (
        <BrandingForm
          // A save gives new saved values: the form starts again from them.
          key={branding.data.updated_at ?? "default"}
          saved={branding.data}
          readOnly={!canChange}
          save={async (change) => {
            const updated = await updateBranding(workspace.id, change);
            queryClient.setQueryData(brandingQuery(workspace.id).queryKey, updated);
          }}
        />
      )}
    </SectionCard>
  );
}
