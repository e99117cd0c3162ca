import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link, Outlet } from "@tanstack/react-router";
import { useEffect } from "react";
import { ErrorState, LoadingState } from "../components/page-states.tsx";
import { Button } from "../components/ui/button.tsx";
import { WorkspaceProvider } from "../features/workspace/workspace-context.tsx";
import { isNotFound, rememberWorkspace } from "../lib/navigation.ts";
import { workspaceQuery } from "../lib/queries.ts";
import { useTitle } from "../lib/use-title.ts";

const route = getRouteApi("/_app/w/$workspaceId");

export function WorkspaceLayout() {
  const { workspaceId } = route.useParams();
  const workspace = useQuery(workspaceQuery(workspaceId));
  const found = workspace.isSuccess;

  useEffect(() => {
    if (found) rememberWorkspace(workspaceId);
  }, [found, workspaceId]);

  if (workspace.isPending) return <LoadingState label="Loading the workspace…" />;
  if (workspace.isError) {
    if (isNotFound(workspace.error)) return <WorkspaceNotFound />;
    return <ErrorState error={workspace.error} onRetry={() => workspace.refetch()} />;
  }
  return (
    <WorkspaceProvider value={workspace.data}>
      <Outlet />
    </WorkspaceProvider>
  );
}

function WorkspaceNotFound() {
  useTitle("Workspace not found");
  return (
    <div className="mx-auto flex max-w-md flex-col items-start gap-3 py-10">
      <h1 className="text-xl font-semibold">Workspace not found</h1>
      <p className="text-sm text-muted-foreground">
        It may have been deleted, or you are no longer a member. Ask one of its admins to invite you again.
      </p>
      <Button asChild>
        <Link to="/">Go to your workspaces</Link>
      </Button>
    </div>
  );
}
