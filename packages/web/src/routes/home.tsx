import { useQuery } from "@tanstack/react-query";
import { Navigate } from "@tanstack/react-router";
import { LoadingState } from "../components/page-states.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card.tsx";
import { NewWorkspaceForm } from "../features/shell/new-workspace-dialog.tsx";
import { lastWorkspace } from "../lib/navigation.ts";
import { meQuery } from "../lib/queries.ts";
import { useTitle } from "../lib/use-title.ts";

/** `/`: opens the workspace used last (or the first); with none, offers to create one. */
export function HomePage() {
  const me = useQuery(meQuery);
  useTitle("Welcome");
  if (!me.data) return <LoadingState />;
  const { workspaces } = me.data;
  const remembered = lastWorkspace();
  const target = workspaces.find((workspace) => workspace.id === remembered) ?? workspaces[0];
  if (target) return <Navigate to="/w/$workspaceId" params={{ workspaceId: target.id }} replace />;
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">Welcome, {me.data.user.name}</h1>
      <Card>
        <CardHeader>
          <div>
            <CardTitle>Create a workspace</CardTitle>
            <CardDescription>
              You are not a member of any workspace. Create one for your brands, or ask a colleague to invite you to
              theirs.
            </CardDescription>
          </div>
        </CardHeader>
        <CardContent>
          <NewWorkspaceForm />
        </CardContent>
      </Card>
    </div>
  );
}
