import { useQuery } from "@tanstack/react-query";
import { WebhookIcon } from "lucide-react";
import { EmptyState, QueryState, RoleNote } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { atLeast } from "../../lib/roles.ts";
import { useWorkspace } from "../workspace/workspace-context.tsx";
import { CreateWebhookDialog } from "./create-webhook-dialog.tsx";
import { WebhookItem } from "./webhook-item.tsx";
import { webhooksQuery } from "./webhooks-api.ts";

export function WebhooksCard() {
  const workspace = useWorkspace();
  const canManage = atLeast(workspace.role, "admin");
  const webhooks = useQuery(webhooksQuery(workspace.id));

  return (
    <SectionCard
      id="webhooks"
      titleId="webhooks-title"
      title="Webhooks"
      description="            Send events to your own systems, such as Slack, a CRM or a data warehouse, the moment they happen."
      actions={canManage && <CreateWebhookDialog workspaceId={workspace.id} />}
      contentClassName="grid gap-4"
    >
      {!canManage && <RoleNote>Only admins and owners can add or change webhooks.</RoleNote>}
      <QueryState query={webhooks} loading="Loading webhooks…" error="The webhooks could not be loaded" />
      {webhooks.data?.data.length === 0 && (
        <EmptyState icon={<WebhookIcon />} title="No webhook endpoints">
          {canManage
            ? "Add an endpoint to be told when analyses finish, alerts fire or brands change."
            : "An admin can add one."}
        </EmptyState>
      )}
      {webhooks.data && webhooks.data.data.length > 0 && (
        <ul className="divide-y">
          {webhooks.data.data.map((endpoint) => (
            <WebhookItem key={endpoint.id} workspaceId={workspace.id} endpoint={endpoint} canManage={canManage} />
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
