import { useQuery } from "@tanstack/react-query";
import { PlugIcon } from "lucide-react";
import { CopyField } from "../../components/copy-field.tsx";
import { NoApiAccessNote } from "../../components/no-api-access-note.tsx";
import { EmptyState, QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { meQuery } from "../../lib/queries.ts";
import { atLeast } from "../../lib/roles.ts";
import { useWorkspace } from "../workspace/workspace-context.tsx";
import { AppsTable } from "./apps-table.tsx";
import { connectedAppsQuery } from "./connected-apps-api.ts";

/**
 * Settings → Connected apps: the assistants members signed in to this workspace through the MCP
 * server (OAuth), who connected each, with what permissions, and a way to disconnect them: a member
 * their own, an admin or owner anyone's.
 */
export function ConnectedAppsCard() {
  const workspace = useWorkspace();
  const me = useQuery(meQuery);
  const apps = useQuery(connectedAppsQuery(workspace.id));
  const list = apps.data?.data ?? [];
  const mcpUrl = `${window.location.origin}/mcp`;

  return (
    <SectionCard
      id="connected-apps"
      titleId="connected-apps-title"
      title="Connected apps"
      description="AI assistants such as Claude, ChatGPT or your IDE's agent that members let use this workspace. Each signed in with a member's account and can do only what that member allowed."
      contentClassName="grid gap-4"
    >
      {workspace.api_access ? (
        <CopyField label="MCP server address" value={mcpUrl} />
      ) : (
        <NoApiAccessNote title="Connecting apps needs the Growth plan or above." plan={workspace.plan} />
      )}
      <QueryState query={apps} loading="Loading connected apps…" error="The connected apps could not be loaded" />
      {apps.isSuccess && list.length === 0 && (
        <EmptyState icon={<PlugIcon />} title="No apps connected yet">
          Add Sightline to Claude, ChatGPT or your IDE with the MCP server address{" "}
          <span className="font-mono break-all text-foreground">{mcpUrl}</span>; they send you here to sign in and
          choose what they may do.
        </EmptyState>
      )}
      {list.length > 0 && (
        <AppsTable
          workspaceId={workspace.id}
          apps={list}
          canDisconnect={(app) =>
            (app.status === "active" || app.status === "no_access") &&
            (atLeast(workspace.role, "admin") || app.user.id === me.data?.user.id)
          }
        />
      )}
    </SectionCard>
  );
}
