import { Badge } from "../components/ui/badge.tsx";
import { BrandsList } from "../features/brands/brands-list.tsx";
import { DeletedBrands } from "../features/brands/deleted-brands.tsx";
import { OverviewStats } from "../features/overview/overview-stats.tsx";
import { useWorkspace } from "../features/workspace/workspace-context.tsx";
import { planName } from "../lib/format.ts";
import { atLeast, ROLE_NAMES } from "../lib/roles.ts";
import { useTitle } from "../lib/use-title.ts";

/** The workspace's home: its brands with their figures, and the workspace at a glance. */
export function BrandsPage() {
  const workspace = useWorkspace();
  useTitle(workspace.name);
  return (
    <div className="grid gap-6">
      <div className="min-w-0">
        <h1 className="truncate text-2xl font-semibold tracking-tight">{workspace.name}</h1>
        <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          <Badge variant="outline">{planName(workspace.plan)} plan</Badge>
          <span>
            Your role: <span className="font-medium text-foreground">{ROLE_NAMES[workspace.role]}</span>
          </span>
        </p>
      </div>
      <BrandsList workspaceId={workspace.id} canEdit={atLeast(workspace.role, "member")} />
      <OverviewStats workspace={workspace} />
      <DeletedBrands workspaceId={workspace.id} canRestore={atLeast(workspace.role, "admin")} />
    </div>
  );
}
