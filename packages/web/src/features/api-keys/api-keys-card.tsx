import { useQuery } from "@tanstack/react-query";
import { KeyRoundIcon } from "lucide-react";
import { NoApiAccessNote } from "../../components/no-api-access-note.tsx";
import { EmptyState, QueryState, RoleNote } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { atLeast } from "../../lib/roles.ts";
import { useWorkspace } from "../workspace/workspace-context.tsx";
import { apiKeysQuery } from "./api-keys-api.ts";
import { CreateKeyDialog } from "./create-key-dialog.tsx";
import { KeysTable } from "./keys-table.tsx";

export function ApiKeysCard() {
  const workspace = useWorkspace();
  const canManage = atLeast(workspace.role, "admin") && workspace.api_access;
  const apiKeys = useQuery(apiKeysQuery(workspace.id));
  const list = apiKeys.data?.data ?? [];

  return (
    <SectionCard
      id="api-keys"
      titleId="api-keys-title"
      title="API keys"
      description="            Keys let your own tools, scripts and dashboards read and run Sightline through its API."
      actions={canManage && <CreateKeyDialog workspaceId={workspace.id} />}
      contentClassName="grid gap-4"
    >
      {!workspace.api_access && (
        <NoApiAccessNote title="API keys need the Growth plan or above." plan={workspace.plan} />
      )}
      {workspace.api_access && !atLeast(workspace.role, "admin") && (
        <RoleNote>Only admins and owners can create or revoke keys. You can see which keys exist.</RoleNote>
      )}
      <QueryState query={apiKeys} loading="Loading API keys…" error="The API keys could not be loaded" />
      {apiKeys.isSuccess && list.length === 0 && workspace.api_access && (
        <EmptyState icon={<KeyRoundIcon />} title="No API keys yet">
          {canManage ? "Create one to connect a tool to this workspace." : "An admin can create one."}
        </EmptyState>
      )}
      {list.length > 0 && <KeysTable workspaceId={workspace.id} apiKeys={list} canManage={canManage} />}
    </SectionCard>
  );
}
