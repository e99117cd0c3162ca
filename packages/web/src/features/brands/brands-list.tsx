import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { PlusIcon, TagIcon } from "lucide-react";
import { useMemo } from "react";
import { EmptyState, QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Button } from "../../components/ui/button.tsx";
import { resolvePeriod } from "../../lib/period.ts";
import { BrandRow } from "./brand-row.tsx";
import { projectsQuery } from "./brands-api.ts";

/** The workspace's brands, each with its last 30 days at a glance. */
export function BrandsList({ workspaceId, canEdit }: { workspaceId: string; canEdit: boolean }) {
  const projects = useQuery(projectsQuery(workspaceId));
  const period = useMemo(() => resolvePeriod({ days: 30 }), []);
  const addBrand = canEdit && (
    <Button asChild>
      <Link to="/w/$workspaceId/brands/new" params={{ workspaceId }}>
        <PlusIcon aria-hidden="true" />
        Add brand
      </Link>
    </Button>
  );
  return (
    <SectionCard
      titleId="brands-title"
      title="Brands"
      description="How often AI engines name each brand (visibility: answers naming it, with the 95% interval and the number of answers n), over the last 30 days, and its share of the mentions against its competitors."
      actions={addBrand}
    >
      <QueryState query={projects} loading="Loading brands…" error="The brands could not be loaded" />
      {projects.data?.data.length === 0 && (
        <EmptyState icon={<TagIcon />} title="No brands yet">
          {canEdit
            ? "Add your first brand from its website: Sightline suggests its competitors and the questions your customers ask. Then run an analysis: the offline sandbox answers at once, real engines once you connect them in Settings → Engines."
            : "A member of this workspace adds brands; they will appear here."}
        </EmptyState>
      )}
      {projects.data && projects.data.data.length > 0 && (
        <ul className="divide-y">
          {projects.data.data.map((project) => (
            <BrandRow key={project.id} workspaceId={workspaceId} project={project} period={period} />
          ))}
        </ul>
      )}
      {projects.data?.has_more && (
        <p className="mt-3 text-sm text-muted-foreground">Showing the 100 most recently added brands.</p>
      )}
    </SectionCard>
  );
}
