import { Link, useLocation } from "@tanstack/react-router";
import { cn } from "../../lib/utils.ts";

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
    </nav>
  );
}
