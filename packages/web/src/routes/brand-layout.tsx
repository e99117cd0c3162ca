import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link, Outlet } from "@tanstack/react-router";
import { GlobeIcon, PencilIcon } from "lucide-react";
import { useMemo } from "react";
import { BackLink } from "../components/back-link.tsx";
import { ErrorState, LoadingState } from "../components/page-states.tsx";
import { Button } from "../components/ui/button.tsx";
import { RunAnalysisDialog } from "../features/analyses/run-analysis-dialog.tsx";
import { BrandProvider, type BrandScope } from "../features/brand-page/brand-context.tsx";
import { BrandNav } from "../features/brand-page/brand-nav.tsx";
import { projectQuery } from "../features/brands/brands-api.ts";
import { useWorkspace } from "../features/workspace/workspace-context.tsx";
import { isNotFound } from "../lib/navigation.ts";
import { resolvePeriod } from "../lib/period.ts";
import { atLeast } from "../lib/roles.ts";
import { useTitle } from "../lib/use-title.ts";

const route = getRouteApi("/_app/w/$workspaceId/brands/$brandId");

/** Every page of one brand: its name, its actions, its sub-navigation, and the page. */
export function BrandLayout() {
  const { workspaceId, brandId } = route.useParams();
  const search = route.useSearch();
  const workspace = useWorkspace();
  const project = useQuery(projectQuery(workspaceId, brandId));
  const canEdit = atLeast(workspace.role, "member");
  // The period is computed once per filter change, so "today" does not move under a page's queries.
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed only when the filters change
  const period = useMemo(() => resolvePeriod(search), [search.days, search.from, search.to, search.tag]);

  if (project.isPending) return <LoadingState label="Loading the brand…" />;
  if (project.isError) {
    if (isNotFound(project.error)) return <BrandNotFound workspaceId={workspaceId} />;
    return <ErrorState error={project.error} title="The brand could not be loaded" onRetry={() => project.refetch()} />;
  }
  const scope: BrandScope = {
    workspaceId,
    project: project.data,
    engines: workspace.engines,
    canEdit,
    search,
    period,
  };
  return (
    <BrandProvider value={scope}>
      <div className="grid gap-5">
        <div className="grid gap-3">
          <BackLink to="/w/$workspaceId" params={{ workspaceId }}>
            All brands
          </BackLink>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
            <div className="min-w-0">
              <h1 className="truncate text-2xl font-semibold tracking-tight">{project.data.name}</h1>
              <p className="mt-1 flex items-center gap-1 text-sm text-muted-foreground">
                <GlobeIcon className="size-3.5 shrink-0" aria-hidden="true" />
                <span className="truncate">{project.data.primary_domain}</span>
              </p>
            </div>
            {canEdit && (
              <div className="flex flex-wrap gap-2">
                <Button asChild variant="outline">
                  <Link to="/w/$workspaceId/brands/$brandId/edit" params={{ workspaceId, brandId }}>
                    <PencilIcon aria-hidden="true" />
                    Edit brand
                  </Link>
                </Button>
                <RunAnalysisDialog />
              </div>
            )}
          </div>
        </div>
        <BrandNav workspaceId={workspaceId} brandId={brandId} search={search} />
        <Outlet />
      </div>
    </BrandProvider>
  );
}

function BrandNotFound({ workspaceId }: { workspaceId: string }) {
  useTitle("Brand not found");
  return (
    <div className="mx-auto flex max-w-md flex-col items-start gap-3 py-10">
      <h1 className="text-xl font-semibold">Brand not found</h1>
      <p className="text-sm text-muted-foreground">
        It may have been removed, or the link belongs to another workspace.
      </p>
      <Button asChild>
        <Link to="/w/$workspaceId" params={{ workspaceId }}>
          Go to the brands
        </Link>
      </Button>
    </div>
  );
}
