import { useQuery } from "@tanstack/react-query";
import { Link, useLocation } from "@tanstack/react-router";
import { BellIcon } from "lucide-react";
import { cn } from "../../lib/utils.ts";
import { openAlertsQuery } from "../monitoring/monitoring-api.ts";

const linkClass =
  "rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none";
const activeClass = "bg-accent text-foreground";

/** The workspace's pages; the current one is marked for screen readers by aria-current. */
export function WorkspaceNav({ workspaceId, className }: { workspaceId: string; className?: string }) {
  const { pathname } = useLocation();
  // Brands covers the workspace's home and every brand page under it.
  const onBrand = pathname.startsWith(`/w/${workspaceId}/brands/`);
  return (
    <nav aria-label="Workspace" className={cn("flex items-center gap-1", className)}>
      <Link
        to="/w/$workspaceId"
        params={{ workspaceId }}
        className={cn(linkClass, onBrand && activeClass)}
        aria-current={onBrand ? "true" : undefined}
        activeOptions={{ exact: true }}
        activeProps={{ className: activeClass }}
      >
        Brands
      </Link>
      <Link
        to="/w/$workspaceId/settings"
        params={{ workspaceId }}
        className={linkClass}
        activeProps={{ className: activeClass }}
      >
        Settings
      </Link>
      <OpenAlerts workspaceId={workspaceId} />
    </nav>
  );
}

/**
 * The workspace's open alerts, counted: a link to the brand of the newest one (its Monitoring page,
 * where alerts are acknowledged). Nothing while every alert has been worked through.
 */
function OpenAlerts({ workspaceId }: { workspaceId: string }) {
  const open = useQuery(openAlertsQuery(workspaceId));
  const newest = open.data?.data[0];
  if (open.data === undefined || newest === undefined) return null;
  const count = `${open.data.data.length}${open.data.has_more ? "+" : ""}`;
  return (
    <Link
      to="/w/$workspaceId/brands/$brandId/monitoring"
      params={{ workspaceId, brandId: newest.project_id }}
      hash="alerts-title"
      className={cn(linkClass, "flex items-center gap-1.5")}
    >
      <BellIcon className="size-4" aria-hidden="true" />
      Open alerts
      <span className="min-w-5 rounded-full bg-warning px-1.5 text-center text-xs leading-5 font-semibold text-background tabular-nums">
        {count}
      </span>
    </Link>
  );
}
